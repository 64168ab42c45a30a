/**
 * The throughput measurement's cycle (load, one change, save, release) on a redis-server of
 * its own (or REDIS_URL), with `--postgres` on a PostgreSQL of its own (or DATABASE_URL), or
 * with `--memory` on core's memory store (no I/O: core's own share), for the scripts that look inside it: `cycle-profile` (where node's time goes) and
 * `cycle-allocations` (what each cycle allocates).
 */
import { startPostgres, startRedis } from '@datadriver/backends';
import { DataDriver } from '@datadriver/core';
import { MemoryStore } from '@datadriver/core/testing';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis, type RedisOptions } from 'ioredis';
import { type Coins, startServer } from '../measure/in-process-server.js';
import { postgresPorts } from '../measure/postgres-ports.js';
import { type Cycle, dataDriverCycle } from '../measure/throughput.js';
import { quietLogger } from '../quiet-logger.js';

/** Players in flight, as in the throughput measurement. */
export const PLAYERS = 200;

export interface ProfiledCycle {
  readonly cycle: Cycle;
  close(): Promise<void>;
}

/** `--postgres` or `--memory` on the command line: the cycle there, else on Redis. */
export function profiledBackend(): 'postgres' | 'memory' | 'redis' {
  if (process.argv.includes('--postgres')) return 'postgres';
  return process.argv.includes('--memory') ? 'memory' : 'redis';
}

/** The cycle on the backend the command line names (`profiledBackend`). */
export function openProfiledCycle(redisOptions: RedisOptions = {}): Promise<ProfiledCycle> {
  const backend = profiledBackend();
  if (backend === 'postgres') return profiledPostgresCycle();
  if (backend === 'memory') return Promise.resolve(profiledMemoryCycle());
  return profiledCycle(redisOptions);
}

/** The cycle on core's memory store: what core itself costs, with no client and no socket. */
export function profiledMemoryCycle(): ProfiledCycle {
  const driver = new DataDriver<Coins>({
    name: 'PlayerData',
    defaults: { coins: 0, ...inventoryOf(numberOption('record-kb', 0)) },
    store: new MemoryStore(),
    logger: quietLogger,
  });
  return { cycle: dataDriverCycle(driver), close: () => driver.close().then(() => undefined) };
}

/**
 * `--record-kb 16` (memory store only): each profile also holds an inventory of about that many
 * KB of JSON, items of 47 bytes as `scripts/core-only-cycle.mjs`'s `RECORD_KB` makes them, so the
 * cycle's JSON work is a real game's. Its defaults: a profile's first load in a window writes it.
 */
function inventoryOf(recordKb: number): { inventory?: Array<Record<string, string | number>> } {
  if (!(recordKb > 0)) return {};
  const items = Math.round((recordKb * 1024) / 47);
  return {
    inventory: Array.from({ length: items }, (_, index) => ({
      id: `item-${String(index).padStart(6, '0')}`,
      kind: 'sword',
      level: index % 50,
    })),
  };
}

/**
 * The PostgreSQL throughput measurement's cycle: one in-process server on the ports the
 * example game server makes (a pool of 10), as postgres-throughput.ts runs it.
 */
export async function profiledPostgresCycle(): Promise<ProfiledCycle> {
  const own = process.env.DATABASE_URL ? undefined : await startPostgres({ env: {} });
  const ports = await postgresPorts(process.env.DATABASE_URL ?? own!.url);
  const server = startServer({ jobId: `profile-pg-${process.pid}`, ports });
  return {
    cycle: dataDriverCycle(server.drivers[0]!),
    async close() {
      await server.close();
      await ports.close();
      await own?.stop();
    },
  };
}

export async function profiledCycle(options: RedisOptions = {}): Promise<ProfiledCycle> {
  const own = process.env.REDIS_URL ? undefined : await startRedis({ env: {} });
  const client = new Redis(process.env.REDIS_URL ?? own!.url, {
    ...RECOMMENDED_REDIS_OPTIONS,
    ...options,
  });
  const driver = new DataDriver<Coins>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: new RedisStore({ client, logger: quietLogger }),
    logger: quietLogger,
  });
  return {
    cycle: dataDriverCycle(driver),
    async close() {
      await driver.close();
      client.disconnect();
      await own?.stop();
    },
  };
}

/** `--<name> <number>` from the command line, or `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** Where `placeOf` puts what belongs to no place it names. */
export const REST = 'the rest (Node, microtasks, the bench loop)';

/**
 * Where a profile's frame counts: the socket write, the collector, ioredis, core, core's memory
 * backends, the adapter.
 */
export function placeOf(callFrame: {
  readonly functionName: string;
  readonly url: string;
}): string {
  const { functionName, url } = callFrame;
  if (functionName === 'writeUtf8String' || functionName === 'writev') return 'socket writes';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (url.includes('/ioredis/') || url.includes('/redis-parser/')) return 'ioredis';
  // The memory store is core's too, but a backend: `--memory` shows the store's share apart.
  if (url.includes('/packages/core/dist/testing')) return "core's memory backends (testing)";
  if (url.includes('/packages/core/')) return 'DataDriver core';
  if (url.includes('/packages/redis/')) return 'DataDriver Redis adapter';
  if (/\/node_modules\/(pg|pg-[a-z]+|pgpass|postgres-[a-z]+)\//.test(url)) return 'pg';
  if (url.includes('/packages/postgres/')) return 'DataDriver PostgreSQL adapter';
  return REST;
}
