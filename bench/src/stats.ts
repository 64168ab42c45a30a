/** Summaries of timing samples: nearest-rank percentiles, so every figure is a measured value. */

export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
}

/** Nearest-rank percentile `p` (0 to 100) of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('no samples');
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    min: sorted[0]!,
    max: sorted.at(-1)!,
  };
}

/** Element-wise sums of `legs` taken in turn: one sample of a path made of those legs each. */
export function sumOfLegs(legs: readonly (readonly number[])[]): number[] {
  const length = Math.min(...legs.map((leg) => leg.length));
  return Array.from({ length }, (_, index) => legs.reduce((sum, leg) => sum + leg[index]!, 0));
}

/** Times `action` on the high-resolution clock, in milliseconds. */
export async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}
