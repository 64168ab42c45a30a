/** Running trials side by side: crashes take seconds of waiting each, not CPU. */

/**
 * Like `Promise.all`, but settles only once every promise has: a failed trial must not let
 * the caller stop the backends while its sibling trials still have clients talking to them
 * (a peer's lease heartbeat then met a stopped DynamoDB Local and hid the first failure).
 * Rejects with the first failure, in order of the list.
 */
export async function allSettled<T extends readonly unknown[]>(
  promises: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find(
    (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
  );
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as [...T];
}

/** Runs `trial(0..count-1)`, `width` at a time; resolves with the results in order. */
export async function inBatches<T>(
  count: number,
  width: number,
  trial: (n: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let first = 0; first < count; first += width) {
    const batch = Array.from({ length: Math.min(width, count - first) }, (_, i) =>
      trial(first + i),
    );
    results.push(...(await allSettled<T[]>(batch)));
  }
  return results;
}

/** Waits a uniformly random time below `maxMs`: a random phase of a beat of that period. */
export function randomDelay(maxMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));
}
