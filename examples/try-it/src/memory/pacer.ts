/**
 * Drives a virtual clock until some work settles: at once, or paced against wall time so a
 * watcher sees events as they happen. Pacing moves the clock timer by timer, exactly as an
 * instant run does, so the times it produces are the same to the millisecond.
 */
import type { VirtualClock } from '@datadriver/core/testing';
import { Aborted } from '../aborted.js';

/** Wall time between two steps of a paced run (ms). */
const TICK_MS = 20;

/** No case needs more virtual time than this; past it the work is stuck. */
const LIMIT_MS = 10 * 60_000;

export interface Pace {
  /** Virtual ms per wall ms; `undefined` runs as fast as the work allows. */
  readonly rate: number | undefined;
  readonly signal?: AbortSignal;
  /** Called after each paced step with the clock's time. */
  readonly onTick?: (now: number) => void;
}

function wallSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `clock` until `work` settles, and returns its result. */
export async function drive<T>(clock: VirtualClock, work: Promise<T>, pace: Pace): Promise<T> {
  if (pace.rate === undefined) return clock.run(work, LIMIT_MS);
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  watched.catch(() => undefined);
  const wallStart = performance.now();
  const virtualStart = clock.now();
  while (!settled) {
    if (pace.signal?.aborted) throw new Aborted();
    await wallSleep(TICK_MS);
    const target = virtualStart + (performance.now() - wallStart) * pace.rate;
    await advanceUntil(clock, Math.min(target, virtualStart + LIMIT_MS), () => settled);
    if (!settled && clock.now() >= virtualStart + LIMIT_MS) {
      throw new Error(`still running after ${LIMIT_MS} ms of virtual time`);
    }
    pace.onTick?.(clock.now());
  }
  return watched;
}

/**
 * Fires the timers due up to `target` one instant at a time, stopping as soon as `done()`:
 * the clock then reads the instant the work settled.
 */
async function advanceUntil(clock: VirtualClock, target: number, done: () => boolean) {
  for (;;) {
    const next = clock.nextTimerAt();
    if (next === undefined || next > target) {
      await clock.advanceTo(target);
      return;
    }
    await clock.advanceTo(next);
    if (done()) return;
  }
}
