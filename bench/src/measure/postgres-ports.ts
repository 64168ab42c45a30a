/**
 * A server's PostgreSQL ports on a pool of its own, made as the example game server makes them
 * (`--stack postgres`: a pool of 10, calls failing in seconds during an outage, the default
 * schema), so the in-process profile and the throughput run the code the game servers run.
 */
import {
  ensureSchema,
  PostgresMessenger,
  PostgresPresence,
  PostgresStore,
} from '@datadriver/postgres';
import pg from 'pg';
import { quietLogger } from '../quiet-logger.js';
import type { ClosablePorts } from './in-process-server.js';

/** The example game server's pool settings (examples/game-server/src/backends.ts). */
export const POOL_SIZE = 10;

export function postgresPool(url: string, max = POOL_SIZE): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 2_000,
    query_timeout: 5_000,
  });
  pool.on('error', () => undefined); // an idle connection lost: the pool replaces it
  return pool;
}

/** A messenger on a pool of its own (publishing through it, listening beside it). */
export function postgresMessenger(url: string): {
  messenger: PostgresMessenger;
  close(): Promise<void>;
} {
  const pool = postgresPool(url);
  const messenger = new PostgresMessenger({ pool, logger: quietLogger });
  return {
    messenger,
    close: async () => {
      await messenger.close().catch(() => undefined);
      await pool.end();
    },
  };
}

/** Store, messenger and presence on one pool; the schema is created where it is missing. */
export async function postgresPorts(url: string): Promise<ClosablePorts & { poolSize: number }> {
  const pool = postgresPool(url);
  await ensureSchema(pool);
  const messenger = new PostgresMessenger({ pool, logger: quietLogger });
  return {
    store: new PostgresStore({ pool, logger: quietLogger }),
    messenger,
    presence: new PostgresPresence({ pool }),
    poolSize: POOL_SIZE,
    close: async () => {
      await messenger.close().catch(() => undefined);
      await pool.end();
    },
  };
}
