/**
 * The demo's own connection to PostgreSQL (`--postgres`), as redis-records.ts is to Redis: one
 * query before it serves (a wrong URL fails at start), each case's record read back through the
 * PostgreSQL adapter, as the game servers wrote it, and deleted after.
 */
import { ensureSchema, PostgresStore } from '@datadriver/postgres';
import pg from 'pg';
import { type CaseRecords, readRecordView, removeRecord } from './redis-records.js';

export async function connectPostgresRecords(url: string): Promise<CaseRecords> {
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', (error) => console.error(`PostgreSQL at ${url}: ${error.message}`));
  try {
    // The game servers create it too; the demo may read a record before the first one starts.
    await ensureSchema(pool);
  } catch (error) {
    await pool.end();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot reach PostgreSQL at ${url} (${reason}). Start one or run the demo without --postgres.`,
    );
  }
  const store = new PostgresStore({ pool });
  return {
    read: (user) => readRecordView(store, user),
    remove: (user) => removeRecord(store, user),
    close: () => pool.end(),
  };
}
