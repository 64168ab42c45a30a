/**
 * The same-commands floor of throughput on PostgreSQL, as same-commands.ts is on Redis: the
 * statements DataDriver's cycle sends (three calls of the store's own `compare_and_set`, each
 * carrying the version the last one wrote, with no read), sent by hand through a pool of the
 * same size with no DataDriver around them, on a record copied from one DataDriver wrote.
 * Against the naive lock it is the floor of the design (three autocommitted function calls); against
 * DataDriver, what DataDriver's own code costs.
 */

import type { DataDriver } from '@datadriver/core';
import type pg from 'pg';
import type { Coins } from './in-process-server.js';
import type { Cycle } from './throughput.js';

/** The store's compare-and-set, as PostgresStore calls it (default schema, no versions kept). */
const CAS = `SELECT written, current_version, current_record FROM "datadriver".compare_and_set($1, $2, $3, $4, $5, $6, $7)`;

const WRITES = 3;

/** A cycle of three compare-and-sets on `pool`, its keys apart from DataDriver's. */
export async function postgresSameCommandsCycle(
  pool: pg.Pool,
  driver: DataDriver<Coins>,
): Promise<Cycle> {
  const record = JSON.parse(await recordOf(pool, driver)) as { data: Coins };
  const prefix = `${process.pid.toString(36)}-`;
  let versions = 0;
  // Each key's version and coins as its last cycle left them: a cycle with no read needs them.
  const last = new Map<string, { version: string | null; coins: number }>();
  return async (key) => {
    const bytes = Buffer.from(`bench-same/${key}`);
    let { version, coins } = last.get(key) ?? { version: null, coins: 0 };
    for (let write = 0; write < WRITES; write++) {
      if (write === 1) coins += 1; // the save carries the change
      const next = `${prefix}${(versions++).toString(36)}`;
      const json = JSON.stringify({ ...record, data: { ...record.data, coins } });
      const { rows } = await pool.query<{ written: boolean }>(CAS, [
        bytes,
        version,
        next,
        json,
        false,
        null,
        null,
      ]);
      if (rows[0]?.written !== true) throw new Error(`compare-and-set of ${key} failed`);
      version = next;
    }
    last.set(key, { version, coins });
  };
}

/** A record DataDriver wrote for one profile it loaded and saved. */
async function recordOf(pool: pg.Pool, driver: DataDriver<Coins>): Promise<string> {
  const key = `bench-pg-sample-${process.pid}`;
  const profile = await driver.load(key);
  await profile.save();
  const { rows } = await pool.query<{ record: string }>(
    `SELECT record FROM "datadriver".records WHERE position(convert_to($1, 'UTF8') in key) > 0`,
    [key],
  );
  await profile.release();
  if (rows[0] === undefined) throw new Error(`no record of ${key} found`);
  return rows[0].record;
}
