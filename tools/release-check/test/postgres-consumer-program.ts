/**
 * The program a user would write after `npm install @datadriver/core @datadriver/postgres pg`:
 * the whole stack on one PostgreSQL (DATABASE_URL), type-checked against the installed
 * declarations, compiled and run in a fresh project. It leaves its record for the CLI to read.
 */
export const POSTGRES_CONSUMER_PROGRAM = `
import { DataDriver, type Profile } from '@datadriver/core';
import { ensureSchema, PostgresMessenger, PostgresPresence, PostgresStore } from '@datadriver/postgres';
import pg from 'pg';

interface PlayerData {
  coins: number;
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
pool.on('error', () => undefined);
const schema = process.env.SCHEMA ?? 'datadriver';
await ensureSchema(pool, { schema });
const messenger = new PostgresMessenger({ pool, schema });
const driver = new DataDriver<PlayerData>({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new PostgresStore({ pool, schema, versions: { keep: 5 } }),
  messenger,
  presence: new PostgresPresence({ pool, schema }),
  jobId: 'packed-postgres',
});

const profile: Profile<PlayerData> = await driver.load('user-1');
profile.data.coins += 25;
await profile.save();
await profile.release();
const again = await driver.load('user-1');
const coins = again.data.coins;
await driver.close();
await messenger.close();
const rows = await pool.query(\`SELECT count(*)::int AS n FROM "\${schema}".records\`);
await pool.end();
console.log(JSON.stringify({ coins, records: rows.rows[0].n }));
`;
