/**
 * The backends of one bench run, started once through tools/backends (or taken from REDIS_URL,
 * DDB_ENDPOINT, PUBSUB_EMULATOR_HOST and DATABASE_URL), and the stacks the hand-over is
 * measured on: the three of issue 21 and the all-PostgreSQL one of issue 31.
 */
import {
  type DynamoLocalBackend,
  type PostgresBackend,
  type PubSubBackend,
  type RedisBackend,
  startDynamoLocal,
  startPostgres,
  startPubSub,
  startRedis,
} from '@datadriver/backends';

export interface RunningBackends {
  readonly redis: RedisBackend;
  readonly dynamo: DynamoLocalBackend;
  readonly pubsub: PubSubBackend;
  readonly postgres: PostgresBackend;
  stop(): Promise<void>;
}

export const COMBO_IDS = ['all-redis', 'dynamodb-redis', 'redis-pubsub', 'all-postgres'] as const;
export type ComboId = (typeof COMBO_IDS)[number];

export interface Combo {
  readonly id: ComboId;
  readonly label: string;
  /** The environment that makes a game server (examples/game-server) use this combination. */
  readonly env: Readonly<Record<string, string>>;
  /** The game server's `--stack`: `postgres` puts every port on `DATABASE_URL`. */
  readonly stack?: 'postgres';
}

/**
 * PostgreSQL counts each statement it runs (`pg_stat_statements`), as Redis does its commands:
 * the store round trips are counted at the server. Loaded at start; the extension is created
 * by the counter (round-trips.ts).
 */
export const POSTGRES_SETTINGS = { shared_preload_libraries: 'pg_stat_statements' };

export const PUBSUB_PROJECT = 'datadriver-bench';
export const DYNAMO_TABLE = 'datadriver-bench';

export async function startBackends(): Promise<RunningBackends> {
  const [redis, dynamo, pubsub, postgres] = await Promise.all([
    startRedis(),
    startDynamoLocal(),
    // Its own process, as Pub/Sub is another machine: hosted here, it would serve the floors'
    // messages (this process sends and receives them) with no wake and no context switch.
    startPubSub({ ownProcess: true }),
    startPostgres({ settings: POSTGRES_SETTINGS }),
  ]);
  return {
    redis,
    dynamo,
    pubsub,
    postgres,
    stop: async () => {
      await Promise.allSettled([redis.stop(), dynamo.stop(), pubsub.stop(), postgres.stop()]);
    },
  };
}

export function combos(backends: RunningBackends): readonly Combo[] {
  const redis = { REDIS_URL: backends.redis.url };
  return [
    { id: 'all-redis', label: 'all-Redis', env: redis },
    {
      id: 'dynamodb-redis',
      label: 'DynamoDB store + Redis presence/messages',
      env: { ...redis, DDB_ENDPOINT: backends.dynamo.endpoint, DDB_TABLE: DYNAMO_TABLE },
    },
    {
      id: 'redis-pubsub',
      label: 'Redis store/presence + Pub/Sub messages',
      env: {
        ...redis,
        PUBSUB_EMULATOR_HOST: backends.pubsub.endpoint,
        PUBSUB_PROJECT_ID: PUBSUB_PROJECT,
      },
    },
    {
      id: 'all-postgres',
      label: 'all-PostgreSQL',
      env: { DATABASE_URL: backends.postgres.url },
      stack: 'postgres',
    },
  ];
}
