/**
 * The testkit's ClusterBackend (a fleet of simulated game servers) on the run's PostgreSQL:
 * each simulated server gets its own pool (and so its own listening connection). The stack is
 * all PostgreSQL, or mixed: the PostgreSQL store with Redis messages and presence.
 */
import type { Messenger, Presence, VersionRetention } from '@datadriver/core/ports';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger, RedisPresence } from '@datadriver/redis';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { PostgresMessenger, PostgresPresence, PostgresStore } from '../../src/index.js';
import { freshSchema, Pools, quiet } from './postgres.js';

/** Connections per simulated server (and one more to listen, in the all-PostgreSQL stack). */
const POOL_SIZE = 3;

export interface PostgresFleetOptions {
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions with this retention (the lifecycle scenarios need them). */
  readonly versions?: VersionRetention;
  /** `mixed`: Redis carries the messages and the presence (the run's redis-server). */
  readonly stack?: 'postgres' | 'mixed';
}

export async function postgresFleetBackend(options: PostgresFleetOptions): Promise<ClusterBackend> {
  const pools = new Pools();
  const redisClients: Redis[] = [];
  const messengers: Array<{ close(): Promise<void> }> = [];
  const reader = pools.open();
  const schema = await freshSchema(reader, 'fleet');
  const mixed = options.stack === 'mixed';
  const redisPrefix = `ddtest:${schema}:`;
  const sidePorts = async (
    pool: ReturnType<Pools['open']>,
  ): Promise<{ messenger: Messenger; presence: Presence }> => {
    if (!mixed) {
      const messenger = new PostgresMessenger({ pool, schema, logger: quiet });
      messengers.push(messenger);
      return { messenger, presence: new PostgresPresence({ pool, schema }) };
    }
    const client = new Redis(inject('redisUrl'), RECOMMENDED_REDIS_OPTIONS);
    redisClients.push(client);
    await client.ping();
    const messenger = new RedisMessenger({ client, prefix: redisPrefix, logger: quiet });
    messengers.push(messenger);
    return {
      messenger,
      presence: new RedisPresence({ client, prefix: redisPrefix, logger: quiet }),
    };
  };
  return {
    name: mixed ? 'postgres-store-redis-bus' : 'postgres',
    time: realTime(),
    scale: options.scale,
    connect: async () => {
      // A real server connects at boot and keeps its connections: making one (a backend
      // process forked) is not part of any wait the scenarios time.
      const pool = pools.open(undefined, { max: POOL_SIZE, idleTimeoutMillis: 0 });
      await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.query('SELECT 1')));
      const store = new PostgresStore({ pool, schema, logger: quiet, versions: options.versions });
      return { store, ...(await sidePorts(pool)) };
    },
    read: async (storeKey) => {
      const { rows } = await reader.query<{ record: string }>(
        `SELECT record FROM "${schema}".records WHERE key = $1`,
        [Buffer.from(storeKey, 'utf8')],
      );
      return rows[0] === undefined ? undefined : JSON.parse(rows[0].record);
    },
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.close()));
      await Promise.all(redisClients.map((client) => client.quit().catch(() => undefined)));
      await pools.endAll();
    },
  };
}
