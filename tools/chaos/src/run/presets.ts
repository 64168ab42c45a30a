/**
 * The chaos run's and the load run's settings. The handoff's constants are scaled down (a
 * crash takeover in about 2 s instead of 10), and the lock's TTL is short, so a SIGSTOP can
 * outlast it within a short run.
 */
import { RECOMMENDED_REDIS_OPTIONS } from '@datadriver/redis';
import type { NemesisAction } from '../history.js';
import type { ServerTimings } from '../server/server-config.js';

export const CHAOS_TIMINGS: ServerTimings = {
  scale: 0.2,
  lockWaitSeconds: 5,
  localHandoffSeconds: 2,
  lockTtlSeconds: 3,
  lockSkewSeconds: 0.5,
  autosaveSeconds: 1.5,
  saveIntervalMs: 150,
};

/** The load run saves each profile less often: thousands of them share two cores. */
export const LOAD_TIMINGS: ServerTimings = { ...CHAOS_TIMINGS, saveIntervalMs: 2_000 };

/** A machine this loaded (several processes on 2 cores) is late by this much at worst. */
const GRACE_MS = 2_000;

/**
 * The longest a join may take: the wait on this server, the wait for another's lock, one
 * store call left in flight at the deadline (the Redis client's command timeout), and grace.
 */
export function joinBoundMs(timings: ServerTimings): number {
  return (
    (timings.localHandoffSeconds + timings.lockWaitSeconds) * 1_000 +
    RECOMMENDED_REDIS_OPTIONS.commandTimeout +
    GRACE_MS
  );
}

/** A SIGSTOP that outlasts the lock's TTL and skew (and so the presence TTL) by a second. */
export function pauseMsOf(timings: ServerTimings): number {
  return (timings.lockTtlSeconds + timings.lockSkewSeconds) * 1_000 + 1_000;
}

/** Quiet time between one fault's heal and the next: faults close together. */
export const NEMESIS_GAP_MS: readonly [number, number] = [300, 800];
/** How long a kill, a cut or a backend outage lasts. */
export const OUTAGE_MS: readonly [number, number] = [600, 1_500];

export const ALL_ACTIONS: readonly NemesisAction[] = [
  'kill',
  'pause',
  'cut-store',
  'cut-bus',
  'restart-backend',
];
