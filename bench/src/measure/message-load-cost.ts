/**
 * What a load pays for checking the inbox (all-Redis, in process): a server with an
 * `onMessage` reads the profile's inbox at every load, after the lock is taken; one without
 * does not. The same load + release cycle on two servers that differ only by the handler, on
 * the same players' keys:
 *
 * - **latency**: one player at a time, blocks of cycles on each server in turn (a block's first
 *   cycle, whose key the other server released, is not recorded: it reads the record first);
 *   the time of `load` alone;
 * - **throughput**: `throughputPlayers` in flight for `throughputSeconds`, the two servers'
 *   windows taking turns in a rotating order, with Redis's count of commands per cycle (the
 *   inbox read shows as one more HGETALL).
 */
import type { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS } from '@datadriver/redis';
import { Redis } from 'ioredis';
import type { BenchConfig } from '../config.js';
import { type Coins, type InProcessServer, redisPorts, startServer } from './in-process-server.js';
import { RedisCommandCounter } from './round-trips.js';
import {
  CLIENT_COMMANDS,
  type Cycle,
  measureWindow,
  redisCpuSeconds,
  rotated,
  runPlayers,
  type Window,
} from './throughput.js';

export type LoadVariant = 'withHandler' | 'withoutHandler';
const VARIANTS: readonly LoadVariant[] = ['withHandler', 'withoutHandler'];

export interface LoadCostResult {
  /** `load` alone, one player at a time (ms). */
  readonly loadMs: Record<LoadVariant, number[]>;
  /** Load + release cycles per second, many players in flight. */
  readonly windows: Record<LoadVariant, Window[]>;
}

/** Cycles per block of the latency measurement, the first one unrecorded. */
const BLOCK = 10;

export async function measureLoadCost(
  redisUrl: string,
  config: BenchConfig,
  loadSamples: number,
): Promise<LoadCostResult> {
  const tag = `bench-msg-load-${process.pid}`;
  const servers: Record<
    LoadVariant,
    { ports: ReturnType<typeof redisPorts>; server: InProcessServer }
  > = {
    withHandler: serverOn(redisUrl, `${tag}-with`, true),
    withoutHandler: serverOn(redisUrl, `${tag}-without`, false),
  };
  const info = new Redis(redisUrl, RECOMMENDED_REDIS_OPTIONS);
  const counter = RedisCommandCounter.open(redisUrl);
  const drivers = (variant: LoadVariant) => servers[variant].server.drivers[0]!;
  try {
    const result: LoadCostResult = {
      loadMs: { withHandler: [], withoutHandler: [] },
      windows: { withHandler: [], withoutHandler: [] },
    };
    const player = `${tag}-one`;
    for (let block = 0; result.loadMs.withoutHandler.length < loadSamples; block++) {
      for (const variant of rotated(VARIANTS, block)) {
        for (let index = 0; index < BLOCK; index++) {
          const started = performance.now();
          const profile = await drivers(variant).load(player);
          const ms = performance.now() - started;
          await profile.release();
          if (index > 0) result.loadMs[variant].push(ms);
        }
      }
    }
    const measure = (variant: LoadVariant, seconds: number) =>
      measureWindow(
        { counter, cpuSeconds: () => redisCpuSeconds(info), names: CLIENT_COMMANDS },
        // The same players' keys on both servers.
        () =>
          runPlayers(loadRelease(drivers(variant)), `${tag}-tp`, config.throughputPlayers, seconds),
      );
    for (const variant of VARIANTS) await measure(variant, 0.5);
    for (let index = 0; index < config.throughputWindows; index++) {
      for (const variant of rotated(VARIANTS, index)) {
        result.windows[variant].push(await measure(variant, config.throughputSeconds));
      }
    }
    return result;
  } finally {
    counter.close();
    info.disconnect();
    for (const { server, ports } of Object.values(servers)) {
      await server.close();
      await ports.close();
    }
  }
}

function serverOn(redisUrl: string, jobId: string, handler: boolean) {
  const ports = redisPorts(redisUrl);
  const server = startServer({
    jobId,
    ports,
    ...(handler
      ? {
          onMessage: (profile, message) => {
            profile.data.coins += (message.body as { coins: number }).coins;
          },
        }
      : {}),
  });
  return { ports, server };
}

/** Load and release: the load is what the handler changes. */
function loadRelease(driver: DataDriver<Coins>): Cycle {
  return async (key) => {
    const profile = await driver.load(key);
    await profile.release();
  };
}
