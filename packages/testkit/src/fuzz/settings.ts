/** How many runs and which seed: from the options, else FUZZ_RUNS and FUZZ_SEED, else CI's. */
import type { FuzzOptions } from './harness.js';

export interface FuzzSettings {
  readonly runs: number;
  readonly seed: number;
  /** Per property: a long run on demand gets the time it needs. */
  readonly timeoutMs: number;
}

/** CI's short seeded run. */
export const CI_RUNS = 30;
export const CI_SEED = 14;

export function fuzzSettings(options: FuzzOptions = {}): FuzzSettings {
  const runs = options.runs ?? numberFrom(process.env.FUZZ_RUNS) ?? CI_RUNS;
  const seed = options.seed ?? numberFrom(process.env.FUZZ_SEED) ?? CI_SEED;
  return { runs, seed, timeoutMs: Math.max(60_000, runs * 2_000) };
}

function numberFrom(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`expected a non-negative integer, got ${text}`);
  }
  return value;
}
