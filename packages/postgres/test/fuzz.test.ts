/**
 * The testkit's fuzz suite on a real PostgreSQL: hostile keys, names, records and messages.
 * With versions on, a save also writes a row of `record_versions`: it counts as its record's
 * change, and no other record's.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FuzzHarness, fuzzSuite } from '@datadriver/testkit';
import { PostgresMessenger, PostgresPresence, PostgresStore } from '../src/index.js';
import { freshSchema, makePool, quiet } from './support/postgres.js';

fuzzSuite('PostgreSQL', () => postgresHarness(false));
// The messages property does not depend on the store's versions: run once, above.
fuzzSuite('PostgreSQL, versions on', () => postgresHarness(true), { messages: false });

async function postgresHarness(versions: boolean): Promise<FuzzHarness> {
  const pool = makePool();
  const schema = await freshSchema(pool, 'fuzz');
  // The bus and presence in a schema apart from the store's, so the snapshot holds records only.
  const busSchema = await freshSchema(pool, 'fuzzbus');
  const store = new PostgresStore({
    pool,
    schema,
    logger: quiet,
    ...(versions && { versions: { keep: 3 } }),
  });
  const messenger = new PostgresMessenger({ pool, schema: busSchema, logger: quiet });
  const presence = new PostgresPresence({ pool, schema: busSchema });
  const records = `"${schema}".records`;
  /** Every record's row, with its versions (oldest first) appended, by store key. */
  const snapshot = async () => {
    const { rows } = await pool.query<{ key: Buffer; row: string }>(
      `SELECT key, r::text AS row FROM ${records} r`,
    );
    const byKey = new Map(rows.map(({ key, row }) => [key.toString('utf8'), row]));
    const kept = await pool.query<{ key: Buffer; rows: string }>(
      `SELECT key, string_agg(v::text, ',' ORDER BY written_us) AS rows
         FROM "${schema}".record_versions v GROUP BY key`,
    );
    for (const { key, rows: versionRows } of kept.rows) {
      const name = key.toString('utf8');
      byKey.set(name, `${byKey.get(name) ?? ''} versions=${versionRows}`);
    }
    return byKey;
  };
  return {
    store,
    readJson: async (key) => {
      const { rows } = await pool.query<{ record: string }>(
        `SELECT record FROM ${records} WHERE key = $1`,
        [Buffer.from(key, 'utf8')],
      );
      return rows[0]?.record;
    },
    writeJson: async (key, json) => {
      await pool.query(
        `INSERT INTO ${records} (key, version, record) VALUES ($1, $2, $3)
           ON CONFLICT (key) DO UPDATE SET version = excluded.version, record = excluded.record`,
        [Buffer.from(key, 'utf8'), randomUUID(), json],
      );
    },
    rawKeyOf: (key) => key,
    snapshot,
    bus: {
      messenger,
      presence,
      publishRaw: async (topic, payload) => {
        // A NOTIFY payload is text: a NUL cannot travel, so no listener can ever receive one.
        if (payload.includes('\0')) return;
        await pool.query('SELECT pg_notify($1, $2)', [messenger.channelOf(topic), payload]);
      },
      settle: () => sleep(100),
    },
    close: async () => {
      try {
        const kept = await pool.query(`SELECT 1 FROM "${schema}".record_versions LIMIT 1`);
        // The versions suite must have kept versions, or it fuzzed no derived row.
        if (versions && kept.rowCount === 0) throw new Error('no version was kept in the run');
      } finally {
        await messenger.close();
        await pool.end();
      }
    },
  };
}
