/**
 * Throughput on one PostgreSQL from one process, as throughput.ts measures it on Redis: many
 * players in flight, each cycling load, one change, save, release, rejoining the server it left
 * (the load starts from the release's snapshot), and the same with no released snapshot (the
 * load reads first). Against, in the same run, the lock a user of PostgreSQL would write: a
 * transaction that locks the player's row with `SELECT ... FOR UPDATE`, writes the change and
 * commits (BEGIN, SELECT FOR UPDATE, UPDATE, COMMIT on one pooled connection), DataDriver's
 * own statements sent by hand, and the store alone making the same writes with no core around
 * it (postgres-same-commands.ts). Each side on a pool of its own the
 * size the example game server uses (the floor shares the naive lock's); windows take turns, the order
 * rotating each round, so that a change of load on the machine hits them alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import type { BenchConfig } from '../config.js';
import { startServer } from './in-process-server.js';
import { postgresPool, postgresPorts } from './postgres-ports.js';
import {
  postgresSameCommandsCycle,
  postgresStoreAloneCycle,
  sampleRecord,
} from './postgres-same-commands.js';
import { ADAPTER_COMMANDS, PostgresStatementCounter } from './round-trips.js';
import {
  type Cycle,
  coldCycle,
  coldRing,
  dataDriverCycle,
  measureWindow,
  rotated,
  runPlayers,
  type Window,
  type WindowServer,
} from './throughput.js';

export interface PostgresThroughputResult {
  readonly driver: Window[];
  /** The same cycle on keys this server kept no released snapshot of: a read first. */
  readonly driverCold: Window[];
  /** DataDriver's statements sent by hand (postgres-same-commands.ts). */
  readonly sameCommands: Window[];
  /** The same writes as `PostgresStore.update` calls, with no core around them (absent from runs before it). */
  readonly storeAlone?: Window[];
  readonly naive: Window[];
  /** The pool size of each side. */
  readonly poolSize: number;
}

type Variant = 'driver' | 'driverCold' | 'sameCommands' | 'storeAlone' | 'naive';
const VARIANTS: readonly Variant[] = [
  'driver',
  'driverCold',
  'sameCommands',
  'storeAlone',
  'naive',
];

/** The naive lock's table: a player's coins, one row per player. */
const NAIVE_TABLE = 'bench_naive_lock';

export async function measurePostgresThroughput(
  url: string,
  config: BenchConfig,
): Promise<PostgresThroughputResult> {
  const ports = await postgresPorts(url);
  const server = startServer({ jobId: `bench-pg-throughput-${process.pid}`, ports });
  const naivePool = postgresPool(url);
  const counterPool = postgresPool(url, 1);
  const counter = await PostgresStatementCounter.open(counterPool);
  try {
    const postmaster = await postmasterPid(counterPool);
    const measured: WindowServer = {
      counter,
      cpuSeconds: async () => postgresCpuSeconds(postmaster),
      names: [...ADAPTER_COMMANDS, ...NAIVE_STATEMENTS],
    };
    const measure = (cycle: Cycle, tag: string, seconds: number) =>
      measureWindow(measured, () => runPlayers(cycle, tag, config.throughputPlayers, seconds));
    const driver = server.drivers[0]!;
    const record = await sampleRecord(naivePool, driver);
    const cycles: Record<Variant, Cycle> = {
      driver: dataDriverCycle(driver),
      driverCold: coldCycle(dataDriverCycle(driver), coldRing(config.throughputPlayers)),
      sameCommands: postgresSameCommandsCycle(naivePool, record),
      storeAlone: postgresStoreAloneCycle(ports.store, record),
      naive: await naiveCycle(naivePool),
    };
    // JIT and connections, not recorded.
    for (const variant of VARIANTS) await measure(cycles[variant], `pg-warm-${variant}`, 0.5);
    const result = {
      driver: [],
      driverCold: [],
      sameCommands: [],
      storeAlone: [],
      naive: [],
      poolSize: ports.poolSize,
    };
    for (let index = 0; index < config.throughputWindows; index++) {
      for (const variant of rotated(VARIANTS, index)) {
        const tag = `pg-${variant}${index}`;
        (result[variant] as Window[]).push(
          await measure(cycles[variant], tag, config.throughputSeconds),
        );
      }
    }
    return result;
  } finally {
    counter.close();
    await naivePool.end();
    await server.close();
    await ports.close();
  }
}

/** The naive lock's statements, as the statement counter names them (round-trips.ts). */
export const NAIVE_STATEMENTS = ['BEGIN', 'SELECT FOR UPDATE', 'UPDATE', 'INSERT', 'COMMIT'];

/** Lock the row, read it, write the change, commit: the lock is the transaction's row lock. */
async function naiveCycle(pool: pg.Pool): Promise<Cycle> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${NAIVE_TABLE} (key text PRIMARY KEY, coins bigint NOT NULL)`,
  );
  return async (key) => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ coins: string }>(
        `SELECT coins FROM ${NAIVE_TABLE} WHERE key = $1 FOR UPDATE`,
        [key],
      );
      if (rows[0] === undefined) {
        // The player's first cycle (one player per key: no other insert races it).
        await client.query(`INSERT INTO ${NAIVE_TABLE} (key, coins) VALUES ($1, 1)`, [key]);
      } else {
        const coins = Number(rows[0].coins) + 1;
        await client.query(`UPDATE ${NAIVE_TABLE} SET coins = $2 WHERE key = $1`, [key, coins]);
      }
      await client.query('COMMIT');
    } catch (error) {
      failure = error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(failure instanceof Error ? failure : undefined);
    }
  };
}

/** The server's main process, from the data folder's `postmaster.pid` (a server we started). */
async function postmasterPid(pool: pg.Pool): Promise<number | undefined> {
  try {
    const { rows } = await pool.query<{ data_directory: string }>('SHOW data_directory');
    const lines = readFileSync(join(rows[0]!.data_directory, 'postmaster.pid'), 'utf8');
    return Number(lines.split('\n')[0]);
  } catch {
    return undefined; // not on this machine (DATABASE_URL), or not readable: CPU not measured
  }
}

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds of the whole server so far: the postmaster's own and its finished children's
 * (cutime, cstime), plus each live child's (one process per connection, and the background
 * workers). NaN when the server is not ours to read.
 */
function postgresCpuSeconds(postmaster: number | undefined): number {
  if (postmaster === undefined) return Number.NaN;
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (fields === undefined) continue;
    // After the command's closing parenthesis: state is fields[0], ppid fields[1], utime [11].
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((at) => Number(fields[at]));
    if (Number(name) === postmaster) ticks += utime! + stime! + cutime! + cstime!;
    else if (Number(fields[1]) === postmaster) ticks += utime! + stime!;
  }
  return ticks / TICKS_PER_SECOND;
}

function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone meanwhile
  }
}
