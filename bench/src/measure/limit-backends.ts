/**
 * Which bus and which store carry the physical limit's legs on each backend combination, and
 * which backend counts a hop's calls.
 */
import type { Combo, RunningBackends } from '../backends.js';
import type { WriteStore } from './conditional-writes.js';
import type { Bus } from './messenger-pairs.js';
import { postgresPool } from './postgres-ports.js';
import { type CallCounter, PostgresStatementCounter, RedisCommandCounter } from './round-trips.js';

/**
 * PostgreSQL's statements on the all-PostgreSQL stack, Redis's commands on the others (with
 * the DynamoDB store, Redis's presence and messages only: the store's requests are counted by
 * the SDK middleware where the bench makes the client).
 */
export function counterOf(combo: Combo, backends: RunningBackends): Promise<CallCounter> {
  if (combo.id === 'all-postgres') {
    return PostgresStatementCounter.open(postgresPool(backends.postgres.url, 1));
  }
  return Promise.resolve(RedisCommandCounter.open(backends.redis.url));
}

export function busOf(combo: Combo, backends: RunningBackends): Bus {
  if (combo.id === 'all-postgres') return { kind: 'postgres', url: backends.postgres.url };
  return combo.id === 'redis-pubsub'
    ? { kind: 'pubsub', endpoint: backends.pubsub.endpoint }
    : { kind: 'redis', url: backends.redis.url };
}

export function storeOf(combo: Combo, backends: RunningBackends): WriteStore {
  if (combo.id === 'all-postgres') return { kind: 'postgres', url: backends.postgres.url };
  return combo.id === 'dynamodb-redis'
    ? { kind: 'dynamodb', endpoint: backends.dynamo.endpoint }
    : { kind: 'redis', url: backends.redis.url };
}
