/**
 * Throughput on one Redis from one process: many players in flight, each cycling load, one
 * change, save, release. Each player rejoins on the server they left, so every load but the
 * first starts from the release's snapshot (one compare-and-set, no read); a second DataDriver
 * variant, `driverCold`, cycles each player over keys enough that no snapshot is left for the
 * next load (a read, then the compare-and-set: a player arriving from another server). Against,
 * in the same run, a naive lock (SET NX PX for the lock, GET
 * to load, SET to save, DEL to release, with no handoff, no presence and no lock rules) and
 * the same commands DataDriver sends, by hand (same-commands.ts). Windows of the three take
 * turns, the order rotating each round, so that a change of load on the machine hits them
 * alike. All use the Redis adapter's recommended client options; a second pass adds ioredis's
 * auto-pipelining to all, because the profile shows the cycle bound by one socket write per
 * command.
 */
import { randomUUID } from 'node:crypto';
import type { DataDriver } from '@datadriver/core';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis, type RedisOptions } from 'ioredis';
import type { BenchConfig } from '../config.js';
import { quietLogger } from '../quiet-logger.js';
import { type Coins, redisPorts, startServer } from './in-process-server.js';
import {
  ADAPTER_COMMANDS,
  type CallCounter,
  type Calls,
  per,
  RedisCommandCounter,
} from './round-trips.js';
import {
  type CycleShape,
  type RecordSamples,
  sameCommandsCycle,
  shapeOf,
} from './same-commands.js';

export interface Window {
  readonly cyclesPerSecond: number;
  /**
   * CPU time per cycle (µs) of this process and of the server (redis-server, or PostgreSQL's
   * processes): which side is saturated.
   */
  readonly nodeCpuUsPerCycle: number;
  readonly serverCpuUsPerCycle: number;
  /** Commands per cycle the clients sent (see round-trips.ts), by name. */
  readonly callsPerCycle: Calls;
}

export interface ThroughputResult {
  readonly driver: Window[];
  /** The same cycle on keys this server kept no released snapshot of: a read first. */
  readonly driverCold: Window[];
  readonly sameCommands: Window[];
  readonly naive: Window[];
  /** The commands of DataDriver's cycle, as the same-commands floor sent them. */
  readonly shape: CycleShape;
}

type Variant = 'driver' | 'driverCold' | 'sameCommands' | 'naive';
const VARIANTS: readonly Variant[] = ['driver', 'driverCold', 'sameCommands', 'naive'];

export type Cycle = (key: string) => Promise<void>;

export async function measureThroughput(
  redisUrl: string,
  config: BenchConfig,
  clientOptions: RedisOptions = {},
): Promise<ThroughputResult> {
  const ports = redisPorts(redisUrl, clientOptions);
  const server = startServer({ jobId: `bench-throughput-${process.pid}`, ports });
  const naiveClient = new Redis(redisUrl, { ...RECOMMENDED_REDIS_OPTIONS, ...clientOptions });
  const counter = RedisCommandCounter.open(redisUrl);
  try {
    const driver = server.drivers[0]!;
    const measure = (cycle: Cycle, tag: string, seconds: number) =>
      measureWindow(
        { counter, cpuSeconds: () => redisCpuSeconds(naiveClient), names: CLIENT_COMMANDS },
        () => runPlayers(cycle, tag, config.throughputPlayers, seconds),
      );
    // JIT and connections, not recorded; DataDriver's tells which commands its cycle sends.
    const warm = await measure(dataDriverCycle(driver), 'warm-d', 0.5);
    const shape = shapeOf(warm.callsPerCycle);
    const cycles: Record<Variant, Cycle> = {
      driver: dataDriverCycle(driver),
      driverCold: coldCycle(dataDriverCycle(driver), coldRing(config.throughputPlayers)),
      sameCommands: await sameCommandsCycle(naiveClient, shape, await recordsOf(driver, redisUrl)),
      naive: naiveCycle(naiveClient),
    };
    await measure(cycles.driverCold, 'warm-c', 0.5);
    await measure(cycles.sameCommands, 'warm-s', 0.5);
    await measure(cycles.naive, 'warm-n', 0.5);
    const result: ThroughputResult = {
      driver: [],
      driverCold: [],
      sameCommands: [],
      naive: [],
      shape,
    };
    for (let index = 0; index < config.throughputWindows; index++) {
      for (const variant of rotated(VARIANTS, index)) {
        const tag = `${variant}${index}`;
        result[variant].push(await measure(cycles[variant], tag, config.throughputSeconds));
      }
    }
    return result;
  } finally {
    counter.close();
    naiveClient.disconnect();
    await server.close();
    await ports.close();
  }
}

/** Load, one change, save, release: the cycle every throughput figure of DataDriver runs. */
export function dataDriverCycle(driver: DataDriver<Coins>): Cycle {
  return async (key) => {
    const profile = await driver.load(key);
    profile.data.coins += 1;
    await profile.save();
    await profile.release();
  };
}

/** The released snapshots a driver keeps at most (core's `released-snapshots.ts`; README). */
const KEPT_SNAPSHOTS = 1_024;

/**
 * Keys per player for the cold cycle: together more than three times the snapshots a driver
 * keeps (3,200 keys for the full run's 200 players, 16 each; 62 each for the quick run's 50),
 * released in turn, so a key's snapshot is gone by the time its player comes back to it. The
 * commands counted per cycle show it: one HGETALL each.
 */
export function coldRing(players: number): number {
  return Math.max(16, Math.ceil((3 * KEPT_SNAPSHOTS) / players));
}

/** `cycle` on each player's ring of `ring` keys, a different one each time. */
export function coldCycle(cycle: Cycle, ring: number): Cycle {
  const turns = new Map<string, number>();
  return (key) => {
    const turn = turns.get(key) ?? 0;
    turns.set(key, turn + 1);
    return cycle(`${key}-${turn % ring}`);
  };
}

/** `items` starting at `by` (mod length): each round of windows in another order. */
export function rotated<T>(items: readonly T[], by: number): T[] {
  const start = by % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

/** A record DataDriver wrote while holding a profile, and once it released it. */
async function recordsOf(
  driver: ReturnType<typeof startServer>['drivers'][number],
  redisUrl: string,
): Promise<RecordSamples> {
  const client = new Redis(redisUrl, RECOMMENDED_REDIS_OPTIONS);
  try {
    const key = `bench-tp-sample-${process.pid}`;
    const redisKey = new RedisStore({ client, logger: quietLogger }).keyOf(`${driver.name}/${key}`);
    const profile = await driver.load(key);
    const held = (await client.hget(redisKey, 'record')) ?? '';
    await profile.release();
    const released = (await client.hget(redisKey, 'record')) ?? '';
    return { held, released };
  } finally {
    client.disconnect();
  }
}

function naiveCycle(client: Redis): Cycle {
  return async (key) => {
    const token = randomUUID();
    if ((await client.set(`naive-lock:${key}`, token, 'PX', 10_000, 'NX')) !== 'OK') {
      throw new Error(`naive lock of ${key} is taken`); // never: each key has one player
    }
    const coins = Number((await client.get(`naive:${key}`)) ?? 0);
    await client.set(`naive:${key}`, String(coins + 1));
    await client.del(`naive-lock:${key}`);
  };
}

/** The server a window is measured on: its CPU so far (s), and its count of the clients' calls. */
export interface WindowServer {
  readonly counter: CallCounter;
  cpuSeconds(): Promise<number>;
  /** The calls counted per cycle (the clients', not those a script or function makes). */
  readonly names: readonly string[];
}

/** Runs one window and accounts the CPU both sides spent on it, and the commands sent. */
export async function measureWindow(
  server: WindowServer,
  run: () => Promise<Count>,
): Promise<Window> {
  const callsBefore = await server.counter.snapshot();
  const serverBefore = await server.cpuSeconds();
  const nodeBefore = process.cpuUsage();
  const { cycles, seconds } = await run();
  const node = process.cpuUsage(nodeBefore);
  const serverUs = ((await server.cpuSeconds()) - serverBefore) * 1e6;
  const calls = await server.counter.since(callsBefore);
  return {
    cyclesPerSecond: cycles / seconds,
    nodeCpuUsPerCycle: (node.user + node.system) / cycles,
    serverCpuUsPerCycle: serverUs / cycles,
    callsPerCycle: per(calls, cycles, server.names),
  };
}

/** What the two cycles' clients send (the scripts' own HGET, HSET... are left out). */
export const CLIENT_COMMANDS = [...ADAPTER_COMMANDS, 'del'];

export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

export interface Count {
  readonly cycles: number;
  readonly seconds: number;
}

/** Runs `players` loops of `cycle` for `seconds`; resolves with the cycles completed. */
export async function runPlayers(
  cycle: Cycle,
  tag: string,
  players: number,
  seconds: number,
): Promise<Count> {
  const deadline = performance.now() + seconds * 1000;
  let cycles = 0;
  const started = performance.now();
  const player = async (index: number) => {
    const key = `bench-tp-${process.pid}-${tag}-${index}`;
    while (performance.now() < deadline) {
      await cycle(key);
      cycles++;
    }
  };
  await Promise.all(Array.from({ length: players }, (_, index) => player(index)));
  return { cycles, seconds: (performance.now() - started) / 1000 };
}
