/** How long to wait before a retry: a random delay up to `baseMs · 2^retry`, at most `maxMs`. */
export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Conflicting writers are a few milliseconds apart: short delays, spread at random. */
export const CONFLICT_BACKOFF: Backoff = { baseMs: 5, maxMs: 200 };

/** Throttling lasts while a partition's capacity refills: back off further. */
export const THROTTLE_BACKOFF: Backoff = { baseMs: 50, maxMs: 2_000 };

/**
 * "Full jitter": writers that collided once pick different delays, so they do not collide
 * again on the next attempt.
 */
export function backoffMs(retry: number, backoff: Backoff, random: () => number = Math.random) {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** retry);
  return Math.round(random() * ceiling);
}
