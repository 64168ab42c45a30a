/**
 * The throughput measurement's cycle (load, one change, save, release) on a redis-server of
 * its own (or REDIS_URL), for the scripts that look inside it: `cycle-profile` (where node's
 * time goes) and `cycle-allocations` (what each cycle allocates).
 */
import { startRedis } from '@datadriver/backends';
import { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis, type RedisOptions } from 'ioredis';
import type { Coins } from '../measure/in-process-server.js';
import { type Cycle, dataDriverCycle } from '../measure/throughput.js';
import { quietLogger } from '../quiet-logger.js';

/** Players in flight, as in the throughput measurement. */
export const PLAYERS = 200;

export interface ProfiledCycle {
  readonly cycle: Cycle;
  readonly client: Redis;
  close(): Promise<void>;
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
    client,
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

/** Where a profile's frame counts: the socket write, the collector, ioredis, core, the adapter. */
export function placeOf(callFrame: {
  readonly functionName: string;
  readonly url: string;
}): string {
  const { functionName, url } = callFrame;
  if (functionName === 'writeUtf8String' || functionName === 'writev') return 'socket writes';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (url.includes('/ioredis/') || url.includes('/redis-parser/')) return 'ioredis';
  if (url.includes('/packages/core/')) return 'DataDriver core';
  if (url.includes('/packages/redis/')) return 'DataDriver Redis adapter';
  return 'the rest (Node, microtasks, the bench loop)';
}
