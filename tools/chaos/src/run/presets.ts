/**
 * The chaos run's and the load run's settings. The handoff's constants are scaled down (a
 * crash takeover in about 2 s instead of 10), and the lock's TTL is short, so a SIGSTOP can
 * outlast it within a short run.
 */
import type { NemesisAction } from '../history.js';
import { handoffTimingsOf, type ServerTimings } from '../server/server-config.js';

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

/**
 * What a join may take. `documentedMs` is the library's promise at these settings
 * (docs/guide/waits-and-backends.md, "What bounds a join"): the same-server wait, plus
 * `lockWaitSeconds` for the cross-server wait, plus one presence TTL for the store attempt in
 * flight at its deadline. `lateMs` is the real clock's allowance: on a loaded machine (several
 * processes on 2 cores) a server's timers fire late, and its history line is written after.
 */
export interface JoinBound {
  readonly documentedMs: number;
  readonly lateMs: number;
}

const LATE_TIMERS_MS = 2_000;

/** The join bound of servers run with `timings`: the presence TTL is the one they beat with. */
export function joinBoundOf(timings: ServerTimings): JoinBound {
  const { presenceTtlSeconds } = handoffTimingsOf(timings);
  const seconds = timings.localHandoffSeconds + timings.lockWaitSeconds + presenceTtlSeconds;
  return { documentedMs: seconds * 1_000, lateMs: LATE_TIMERS_MS };
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
