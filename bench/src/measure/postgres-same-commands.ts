/**
 * The same-commands floor of throughput on PostgreSQL, as same-commands.ts is on Redis: the
 * statements DataDriver's cycle sends (three calls of the store's own `compare_and_set`, each
 * carrying the version the last one wrote, with no read), sent by hand through a pool of the
 * same size with no DataDriver around them, on a record copied from one DataDriver wrote.
 * Against the naive lock it is the floor of the design (three autocommitted function calls); against
 * DataDriver, what DataDriver's own code costs. Between the two, the store alone: the same
 * writes as `PostgresStore.update` calls, which splits that cost between the adapter and core.
 */

import type { DataDriver, Store } from '@datadriver/core';
import type { StoreRecord, StoreSnapshot } from '@datadriver/core/ports';
import type pg from 'pg';
import type { Coins } from './in-process-server.js';
import type { Cycle } from './throughput.js';

/** The store's compare-and-set, as PostgresStore calls it (default schema, no versions kept). */
const CAS = `SELECT written, current_version, current_record FROM "datadriver".compare_and_set($1, $2, $3, $4, $5, $6, $7)`;

const WRITES = 3;

/** A record as DataDriver wrote it (its data and meta), to copy. */
export type SampleRecord = StoreRecord & { data: Coins };

/** A cycle of three compare-and-sets on `pool`, its keys apart from DataDriver's. */
export function postgresSameCommandsCycle(pool: pg.Pool, record: SampleRecord): Cycle {
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

/**
 * The store alone: the same three writes as `PostgresStore.update` calls on DataDriver's own
 * store (its pool), each given the snapshot the last one returned, as core gives it, with no
 * core around them.
 */
export function postgresStoreAloneCycle(store: Store, record: SampleRecord): Cycle {
  const last = new Map<string, StoreSnapshot>();
  return async (key) => {
    const storeKey = `bench-alone/${key}`;
    let snapshot = last.get(storeKey);
    let coins = (snapshot?.record.data as Coins | undefined)?.coins ?? 0;
    for (let write = 0; write < WRITES; write++) {
      if (write === 1) coins += 1; // the save carries the change
      const next: StoreRecord = { ...record, data: { ...record.data, coins } };
      snapshot = await store.update(storeKey, () => next, snapshot && { expected: snapshot });
      if (snapshot === undefined) throw new Error(`update of ${key} wrote nothing`);
    }
    last.set(storeKey, snapshot!);
  };
}

/** A record DataDriver wrote for one profile it loaded and saved. */
export async function sampleRecord(
  pool: pg.Pool,
  driver: DataDriver<Coins>,
): Promise<SampleRecord> {
  const key = `bench-pg-sample-${process.pid}`;
  const profile = await driver.load(key);
  await profile.save();
  const { rows } = await pool.query<{ record: string }>(
    `SELECT record FROM "datadriver".records WHERE position(convert_to($1, 'UTF8') in key) > 0`,
    [key],
  );
  await profile.release();
  if (rows[0] === undefined) throw new Error(`no record of ${key} found`);
  return JSON.parse(rows[0].record) as SampleRecord;
}
