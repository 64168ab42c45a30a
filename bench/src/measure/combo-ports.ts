/**
 * The ports of one server on a backend combination, each server with its own connections, as
 * a separate process would have: the in-process profile of the hand-over runs two of these.
 */
import { DynamoStore } from '@datadriver/dynamodb';
import { PubSubMessenger } from '@datadriver/pubsub';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { PubSub } from '@google-cloud/pubsub';
import { Redis } from 'ioredis';
import { type Combo, DYNAMO_TABLE, PUBSUB_PROJECT, type RunningBackends } from '../backends.js';
import { quietLogger } from '../quiet-logger.js';
import { dynamoClient } from './conditional-writes.js';
import type { ClosablePorts } from './in-process-server.js';
import { postgresPorts } from './postgres-ports.js';
import type { DynamoRequestCounter } from './round-trips.js';

/** `requests` counts the DynamoDB store's requests, when given. */
export async function comboPorts(
  combo: Combo,
  backends: RunningBackends,
  requests?: DynamoRequestCounter,
): Promise<ClosablePorts> {
  if (combo.id === 'all-postgres') return postgresPorts(backends.postgres.url);
  const redis = new Redis(backends.redis.url, RECOMMENDED_REDIS_OPTIONS);
  const closers: Array<() => unknown> = [];
  const logger = quietLogger;
  let store: ClosablePorts['store'] = new RedisStore({ client: redis, logger });
  let messenger: ClosablePorts['messenger'];
  if (combo.id === 'dynamodb-redis') {
    const client = dynamoClient(backends.dynamo.endpoint);
    requests?.watch(client);
    closers.push(() => client.destroy());
    store = new DynamoStore({ client, tableName: DYNAMO_TABLE, logger });
  }
  if (combo.id === 'redis-pubsub') {
    const client = new PubSub({ projectId: PUBSUB_PROJECT, apiEndpoint: backends.pubsub.endpoint });
    const pubsub = new PubSubMessenger({ client, logger });
    closers.push(
      () => pubsub.destroy(),
      () => client.close(),
    );
    messenger = pubsub;
  } else {
    const redisMessenger = new RedisMessenger({ client: redis, logger });
    closers.push(() => redisMessenger.close());
    messenger = redisMessenger;
  }
  return {
    store,
    messenger,
    presence: new RedisPresence({ client: redis, logger }),
    close: async () => {
      for (const close of closers) await close();
      redis.disconnect();
    },
  };
}
