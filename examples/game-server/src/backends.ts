/**
 * Which backends a game server uses, chosen by environment, as a user's own server would:
 * `REDIS_URL` (store, messages and presence on Redis), `DDB_ENDPOINT` (the store on DynamoDB),
 * `PUBSUB_EMULATOR_HOST` / `PUBSUB_PROJECT_ID` (messages on Pub/Sub). With none, the in-memory
 * backend: one process only, handoff off.
 */
import type { Logger, Messenger, Presence, Store } from '@datadriver/core';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import type { Redis } from 'ioredis';

export interface Backends {
  readonly store: Store;
  readonly messenger: Messenger;
  readonly presence: Presence;
  /** Which backend serves each port, for the logs. */
  readonly description: string;
  close(): Promise<void>;
}

export async function connectBackends(env: NodeJS.ProcessEnv, logger: Logger): Promise<Backends> {
  const closers: Array<() => Promise<unknown>> = [];
  const redis = env.REDIS_URL ? await connectRedis(env.REDIS_URL, logger, closers) : undefined;
  const store = env.DDB_ENDPOINT ? await connectDynamo(env, logger) : redis?.store;
  const messenger =
    env.PUBSUB_EMULATOR_HOST || env.PUBSUB_PROJECT_ID
      ? await connectPubSub(env, logger, closers)
      : redis?.messenger;
  const names = [
    env.DDB_ENDPOINT ? 'store: DynamoDB' : redis ? 'store: Redis' : 'store: memory',
    env.PUBSUB_EMULATOR_HOST || env.PUBSUB_PROJECT_ID
      ? 'messages: Pub/Sub'
      : redis
        ? 'messages: Redis'
        : 'messages: memory',
    redis ? 'presence: Redis' : 'presence: memory',
  ];
  return {
    store: store ?? new MemoryStore(),
    messenger: messenger ?? new MemoryMessenger(),
    presence: redis?.presence ?? new MemoryPresence(),
    description: names.join(', '),
    close: async () => {
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

async function connectRedis(url: string, logger: Logger, closers: Array<() => Promise<unknown>>) {
  const { Redis } = await import('ioredis');
  const { RECOMMENDED_REDIS_OPTIONS, RedisMessenger, RedisPresence, RedisStore } = await import(
    '@datadriver/redis'
  );
  const client = new Redis(url, { ...RECOMMENDED_REDIS_OPTIONS, lazyConnect: false });
  reportConnection(client, logger);
  closers.push(() => client.quit());
  const messenger = new RedisMessenger({ client, logger });
  closers.push(() => messenger.close());
  return {
    store: new RedisStore({ client, logger }),
    messenger,
    presence: new RedisPresence({ client, logger }),
  };
}

/**
 * ioredis emits 'error' on every failed reconnection attempt, and an 'error' event with no
 * listener prints "[ioredis] Unhandled error event" with a stack each time: one warning per
 * outage instead, and a line when the connection is back.
 */
function reportConnection(client: Redis, logger: Logger): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (!down)
      logger.warn(`Redis connection failed (ioredis keeps reconnecting): ${error.message}`);
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.warn('Redis connection is back');
    down = false;
  });
}

async function connectDynamo(env: NodeJS.ProcessEnv, logger: Logger): Promise<Store> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoStore, ensureTable } = await import('@datadriver/dynamodb');
  const client = new DynamoDBClient({
    endpoint: env.DDB_ENDPOINT,
    region: env.AWS_REGION ?? 'us-east-1',
    credentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
  });
  const tableName = env.DDB_TABLE ?? 'datadriver-example';
  await ensureTable({ client, tableName });
  return new DynamoStore({ client, tableName, logger });
}

async function connectPubSub(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  closers: Array<() => Promise<unknown>>,
) {
  const { PubSub } = await import('@google-cloud/pubsub');
  const { PubSubMessenger } = await import('@datadriver/pubsub');
  const client = new PubSub({ projectId: env.PUBSUB_PROJECT_ID ?? 'datadriver-example' });
  closers.push(() => client.close());
  return new PubSubMessenger({ client, logger });
}
