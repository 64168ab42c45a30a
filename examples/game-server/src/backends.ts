/**
 * Which backends a game server uses, chosen by environment, as a user's own server would:
 * `REDIS_URL` (store, messages and presence on Redis), `DDB_ENDPOINT` (the store on DynamoDB),
 * `PUBSUB_EMULATOR_HOST` / `PUBSUB_PROJECT_ID` (messages on Pub/Sub). With none, the in-memory
 * backend: one process only, handoff off. `--stack postgres` puts all three on the PostgreSQL at
 * `DATABASE_URL` instead (tables in `DD_PG_SCHEMA`, default `datadriver`).
 */
import type { Logger, Messenger, Presence, Store } from '@datadriver/core';
import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import type { Redis } from 'ioredis';
import type { ServerStack } from './args.js';

export interface Backends {
  readonly store: Store;
  readonly messenger: Messenger;
  readonly presence: Presence;
  /** Which backend serves each port, for the logs. */
  readonly description: string;
  close(): Promise<void>;
}

export async function connectBackends(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  stack: ServerStack = 'env',
): Promise<Backends> {
  const closers: Array<() => Promise<unknown>> = [];
  if (stack === 'postgres') return connectPostgres(env, logger, closers);
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
    close: closeAll(closers),
  };
}

function closeAll(closers: ReadonlyArray<() => Promise<unknown>>): () => Promise<void> {
  return async () => {
    for (const close of closers) await close().catch(() => undefined);
  };
}

async function connectPostgres(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  closers: Array<() => Promise<unknown>>,
): Promise<Backends> {
  if (!env.DATABASE_URL) throw new Error('--stack postgres needs DATABASE_URL (postgres://...)');
  const { default: pg } = await import('pg');
  const { ensureSchema, PostgresMessenger, PostgresPresence, PostgresStore } = await import(
    '@datadriver/postgres'
  );
  // As packages/postgres/README.md sets it up: an outage fails a call in seconds, never hangs.
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: 10,
    connectionTimeoutMillis: 2_000,
    query_timeout: 5_000,
  });
  pool.on('error', (error) => logger.warn(`PostgreSQL idle connection lost: ${error.message}`));
  closers.push(() => pool.end());
  const schema = env.DD_PG_SCHEMA ?? 'datadriver';
  try {
    await ensureSchema(pool, { schema });
  } catch (error) {
    await closeAll(closers)();
    throw error;
  }
  const messenger = new PostgresMessenger({ pool, schema, logger });
  closers.unshift(() => messenger.close());
  return {
    store: new PostgresStore({ pool, schema, logger }),
    messenger,
    presence: new PostgresPresence({ pool, schema }),
    description: 'store, messages and presence: PostgreSQL',
    close: closeAll(closers),
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
