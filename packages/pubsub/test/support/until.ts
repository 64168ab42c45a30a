/** Polls `condition` every 5 ms; fails with `what` after `limitMs`. */
export async function until(
  condition: () => boolean,
  limitMs: number,
  what: string,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs)
      throw new Error(`${what} did not happen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
