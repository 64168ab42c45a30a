/**
 * A server's own clock as a scenario bends it: read ahead of the shared clock (skew), or with
 * timers that wait longer than asked (a slow build). Timers still fire on the shared clock.
 */
import type { Scheduler } from '@datadriver/core';
import { VirtualClock } from '@datadriver/core/testing';

/** A server's view of the shared clock, `offsetMs` ahead; timers still fire on the shared clock. */
export function skewed(scheduler: Scheduler, offsetMs: number): Scheduler {
  if (offsetMs === 0) return scheduler;
  if (scheduler instanceof VirtualClock) return scheduler.skewed(offsetMs);
  return {
    now: () => scheduler.now() + offsetMs,
    schedule: (delay, callback, priority) => scheduler.schedule(delay, callback, priority),
    repeat: (interval, callback, priority) => scheduler.repeat(interval, callback, priority),
  };
}

/**
 * `scheduler` with each normal-priority timer's delay replaced by `delay(ms)`, above the
 * ledger: a build that waits longer than it says, as the ledger sees it.
 */
export function stretched(scheduler: Scheduler, delay: (delayMs: number) => number): Scheduler {
  return {
    now: () => scheduler.now(),
    schedule: (delayMs, callback, priority) =>
      scheduler.schedule(priority === 'background' ? delayMs : delay(delayMs), callback, priority),
    repeat: (interval, callback, priority) => scheduler.repeat(interval, callback, priority),
  };
}
