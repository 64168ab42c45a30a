/** Which bus and which store carry the physical limit's legs on each backend combination. */
import type { Combo, RunningBackends } from '../backends.js';
import type { WriteStore } from './conditional-writes.js';
import type { Bus } from './messenger-pairs.js';

export function busOf(combo: Combo, backends: RunningBackends): Bus {
  return combo.id === 'redis-pubsub'
    ? { kind: 'pubsub', endpoint: backends.pubsub.endpoint }
    : { kind: 'redis', url: backends.redis.url };
}

export function storeOf(combo: Combo, backends: RunningBackends): WriteStore {
  return combo.id === 'dynamodb-redis'
    ? { kind: 'dynamodb', endpoint: backends.dynamo.endpoint }
    : { kind: 'redis', url: backends.redis.url };
}
