/**
 * A measurement run in a node process of its own (`apart-main.ts`), so that its windows see no
 * heap but their own: the bench's process has built one by then (the backends' clients, the
 * Pub/Sub emulator, every sample so far), and every garbage collection in a window walks it.
 * On 2026-12-04 core's own CPU per cycle read 13.0 µs in the bench's process after the
 * hand-over and throughput sections, and 9.0 to 9.6 µs in a fresh one; the throughput against
 * the naive lock 0.86 there and 0.98 in a run of that section alone. Both sides of a ratio run
 * in the same child, taking turns, as they did in the bench's process.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RedisOptions } from 'ioredis';
import type { BenchConfig } from '../config.js';
import type { CoreCycle } from './core-cycle.js';
import type { ThroughputResult } from './throughput.js';

export interface ApartArguments {
  'core-cycle': { players: number; windows: number; windowSeconds: number };
  // Only what survives JSON: a function or a buffer among client options would not.
  throughput: {
    redisUrl: string;
    config: BenchConfig;
    clientOptions: Pick<RedisOptions, 'enableAutoPipelining'>;
  };
}
export interface ApartResults {
  'core-cycle': CoreCycle;
  throughput: ThroughputResult;
}
export type ApartName = keyof ApartArguments;

const APART_MAIN = fileURLToPath(new URL('./apart-main.js', import.meta.url));
/** Longer than any measurement run apart takes (the throughput section: about 90 s). */
const TIMEOUT_MS = 600_000;

/** Runs measurement `name` with `args` in a fresh node process; its result, as it printed it. */
export async function measureApart<N extends ApartName>(
  name: N,
  args: ApartArguments[N],
): Promise<ApartResults[N]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [APART_MAIN, name, JSON.stringify(args)],
    { timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
  );
  const last = stdout.trimEnd().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as ApartResults[N];
  } catch {
    throw new Error(
      `${name}, run apart, did not end with its result as JSON; it printed:\n${stdout}`,
    );
  }
}
