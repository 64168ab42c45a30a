/** Running trials side by side: crashes take seconds of waiting each, not CPU. */

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
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

/** Waits a uniformly random time below `maxMs`: a random phase of a beat of that period. */
export function randomDelay(maxMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));
}
