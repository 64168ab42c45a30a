/**
 * `pnpm --filter @datadriver/example-game-server redis-down`: what a load does when Redis is
 * down as the server starts (nothing listens on the port). Prints, for the recommended ioredis
 * options and for ioredis's defaults, how long `load()` retried before it failed, how many
 * store calls it made, and the error it failed with. `--lock-wait S` changes lockWaitSeconds
 * (default 15, the seed's).
 */
import { performance } from 'node:perf_hooks';
import { freePort } from '@datadriver/backends';
import { DataDriver } from '@datadriver/core';
import { DataDriverError, type Logger, type Store, type StoreRecord } from '@datadriver/core/ports';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisDownResult {
  readonly options: string;
  readonly ms: number;
  readonly storeCalls: number;
  readonly code: string;
  readonly message: string;
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A store that counts the calls the driver makes, and adds nothing else. */
function counting(store: Store): { store: Store; calls: () => number } {
  let calls = 0;
  const counted: Store = Object.create(store, {
    update: {
      value: (
        key: string,
        transform: (current: StoreRecord | undefined) => unknown,
        options?: unknown,
      ) => {
        calls += 1;
        return (store.update as (...args: unknown[]) => Promise<unknown>)(key, transform, options);
      },
    },
  });
  return { store: counted, calls: () => calls };
}

/** Loads one profile with Redis down at `port`; resolves with how the load ended. */
export async function loadWithRedisDown(
  label: string,
  clientOptions: RedisOptions,
  lockWaitSeconds: number,
  port: number,
): Promise<RedisDownResult> {
  const client = new Redis(port, '127.0.0.1', clientOptions);
  client.on('error', () => undefined); // one per reconnection attempt: counted below instead
  const { store, calls } = counting(new RedisStore({ client, logger: quiet }));
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store,
    logger: quiet,
    lockWaitSeconds,
  });
  const started = performance.now();
  try {
    await driver.load(`redis-down-${process.pid}`);
    throw new Error('the load succeeded with Redis down');
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    if (!DataDriverError.isInstance(error)) throw error;
    return { options: label, ms, storeCalls: calls(), code: error.code, message: error.message };
  } finally {
    await driver.close();
    client.disconnect();
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--lock-wait');
  const lockWaitSeconds = at >= 0 ? Number(process.argv[at + 1]) : 15;
  if (!(lockWaitSeconds > 0)) throw new Error('--lock-wait must be a positive number of seconds');
  const port = await freePort(); // nothing listens there: Redis is down
  console.log(
    `load() with Redis down (nothing on 127.0.0.1:${port}), lockWaitSeconds ${lockWaitSeconds}:`,
  );
  for (const [label, options] of [
    ['RECOMMENDED_REDIS_OPTIONS', RECOMMENDED_REDIS_OPTIONS],
    ["ioredis's defaults", {}],
  ] as const) {
    const result = await loadWithRedisDown(label, options, lockWaitSeconds, port);
    console.log(
      `  ${label.padEnd(26)} failed after ${(result.ms / 1000).toFixed(1)} s, ${result.storeCalls} store calls: ${result.message}`,
    );
  }
}

if (process.argv[1]?.endsWith('redis-down.js')) await main();
