/**
 * `pnpm --filter @datadriver/bench postgres-store-cost`: the PostgreSQL adapter's own CPU per
 * write, with no I/O. `PostgresStore.update` given the last write's snapshot (as core gives it)
 * against the same statement's call made by hand (postgres-same-commands.ts's), both on a pool
 * whose `query` answers at once that the row was written, taking turns in rounds. What is left
 * is each side's JavaScript: the adapter's key and version, its parameters and its checks of
 * the reply, against the bare call. Runs in seconds, no server.
 *
 *   node dist/profiling/postgres-store-cost.js [--writes 200000] [--rounds 3]
 */
import type { StoreRecord, StoreSnapshot } from '@datadriver/core/ports';
import { PostgresStore } from '@datadriver/postgres';
import type pg from 'pg';
import { quietLogger } from '../quiet-logger.js';
import { numberOption } from './profiled-cycle.js';

const WRITTEN = { rows: [{ written: true, current_version: null, current_record: null }] };
/** A pool whose every statement has run, and written. */
const pool = { query: async () => WRITTEN, options: {} } as unknown as pg.Pool;
const CAS = `SELECT written, current_version, current_record FROM "datadriver".compare_and_set($1, $2, $3, $4, $5, $6, $7)`;
/** A record of the shape DataDriver writes: the data and the session's meta. */
const record: StoreRecord = {
  data: { coins: 0 },
  meta: {
    lock: { jobId: `bench-pg-throughput-${process.pid}`, token: 'x'.repeat(24), time: Date.now() },
    userIds: [],
  },
};
const KEYS = 200;

async function adapter(writes: number): Promise<void> {
  const store = new PostgresStore({ pool, logger: quietLogger });
  let snapshot: StoreSnapshot | undefined;
  for (let n = 0; n < writes; n++) {
    const next: StoreRecord = { ...record, data: { coins: n } };
    snapshot = await store.update(
      `PlayerData/k${n % KEYS}`,
      () => next,
      snapshot && { expected: snapshot },
    );
  }
}

async function byHand(writes: number): Promise<void> {
  for (let n = 0; n < writes; n++) {
    const key = Buffer.from(`bench-same/k${n % KEYS}`);
    const json = JSON.stringify({ ...record, data: { coins: n } });
    const { rows } = await pool.query<{ written: boolean }>(CAS, [
      key,
      'v',
      `v${n}`,
      json,
      false,
      null,
      null,
    ]);
    if (rows[0]?.written !== true) throw new Error('not written');
  }
}

const writes = numberOption('writes', 200_000);
const rounds = numberOption('rounds', 3);
const costs: Record<string, number[]> = { adapter: [], 'by hand': [] };
await adapter(writes / 10); // JIT, not recorded
await byHand(writes / 10);
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of [
    ['adapter', adapter],
    ['by hand', byHand],
  ] as const) {
    const before = process.cpuUsage();
    await run(writes);
    const used = process.cpuUsage(before);
    costs[name]!.push((used.user + used.system) / writes);
  }
}
const best = (name: string) => Math.min(...costs[name]!);
const shown = (name: string) => costs[name]!.map((us) => us.toFixed(2)).join(', ');
console.log(
  `CPU per write (µs), ${rounds} rounds of ${writes}: PostgresStore.update ${shown('adapter')}; the call by hand ${shown('by hand')}`,
);
console.log(
  `the adapter's own: ${(best('adapter') - best('by hand')).toFixed(2)} µs per write (best rounds)`,
);
