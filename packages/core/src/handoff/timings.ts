import { checkKnownKeys, describeValue } from '../rules/config-checks.js';

/**
 * The handoff's clock constants. The values below are the defaults (the default timings); real-backend tests and
 * the demo scale them down so a crash takeover can be watched in seconds.
 */
export interface HandoffTimings {
  /** Presence beat period (default 3 s). Also the gap between the two empty reads. */
  readonly beatSeconds: number;
  /** Presence key lifetime (default 10 s): a server that misses three beats reads as stopped. */
  readonly presenceTtlSeconds: number;
  /** A waiting join repeats its release request this often (default 4 s). */
  readonly requestRepeatSeconds: number;
  /** First park between load attempts (default 0.5 s), doubling up to `parkMaxSeconds`. */
  readonly parkMinSeconds: number;
  /** Longest park between load attempts (default 2 s). */
  readonly parkMaxSeconds: number;
  /** A failed publish is retried once after this long (default 0.5 s). */
  readonly messageRetrySeconds: number;
  /** A failed presence read or write is retried once after this long (default 0.25 s). */
  readonly presenceRetrySeconds: number;
}

export const DEFAULT_TIMINGS: HandoffTimings = Object.freeze({
  beatSeconds: 3,
  presenceTtlSeconds: 10,
  requestRepeatSeconds: 4,
  parkMinSeconds: 0.5,
  parkMaxSeconds: 2,
  messageRetrySeconds: 0.5,
  presenceRetrySeconds: 0.25,
});

/**
 * `DEFAULT_TIMINGS` with every field of `overrides` checked and applied: `Data.InvalidConfig`
 * for a key it does not know, a RangeError for a value that is not a positive number.
 */
export function resolveTimings(overrides: Partial<HandoffTimings> = {}): HandoffTimings {
  checkKnownKeys(overrides, Object.keys(DEFAULT_TIMINGS), 'timings.');
  const timings = { ...DEFAULT_TIMINGS, ...overrides };
  for (const [name, value] of Object.entries(timings)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new RangeError(
        `timings.${name} must be a positive number of seconds, got ${describeValue(value)}`,
      );
    }
  }
  if (timings.parkMaxSeconds < timings.parkMinSeconds) {
    throw new RangeError('timings.parkMaxSeconds must not be below timings.parkMinSeconds');
  }
  return Object.freeze(timings);
}

export function scaleTimings(scale: number): HandoffTimings {
  const scaled: Record<string, number> = {};
  for (const [name, value] of Object.entries(DEFAULT_TIMINGS)) scaled[name] = value * scale;
  return resolveTimings(scaled as unknown as HandoffTimings);
}
