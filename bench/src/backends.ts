/**
 * The backends of one bench run, started once through tools/backends (or taken from REDIS_URL,
 * DDB_ENDPOINT and PUBSUB_EMULATOR_HOST), and the three combinations the issue names.
 */
import {
  type DynamoLocalBackend,
  type PubSubBackend,
  type RedisBackend,
  startDynamoLocal,
  startPubSub,
  startRedis,
} from '@datadriver/backends';

export interface RunningBackends {
  readonly redis: RedisBackend;
  readonly dynamo: DynamoLocalBackend;
  readonly pubsub: PubSubBackend;
  stop(): Promise<void>;
}

export const COMBO_IDS = ['all-redis', 'dynamodb-redis', 'redis-pubsub'] as const;
export type ComboId = (typeof COMBO_IDS)[number];

export interface Combo {
  readonly id: ComboId;
  readonly label: string;
  /** The environment that makes a game server (examples/game-server) use this combination. */
  readonly env: Readonly<Record<string, string>>;
}

export const PUBSUB_PROJECT = 'datadriver-bench';
export const DYNAMO_TABLE = 'datadriver-bench';

export async function startBackends(): Promise<RunningBackends> {
  const [redis, dynamo, pubsub] = await Promise.all([
    startRedis(),
    startDynamoLocal(),
    startPubSub(),
  ]);
  return {
    redis,
    dynamo,
    pubsub,
    stop: async () => {
      await Promise.allSettled([redis.stop(), dynamo.stop(), pubsub.stop()]);
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
  ];
}
