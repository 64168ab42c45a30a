import { type ScheduledTask, type Scheduler, SystemScheduler } from '@datadriver/core';
import { type ClusterTime, realTime } from '@datadriver/testkit';

/**
 * The testkit's real time, with timers that never run before their due time as `now()`
 * reports it. Node counts a timer from the event loop's cached time, so on a busy machine a
 * callback can run a millisecond or more before `Date.now()` reaches its due time; the
 * handoff's "two empty reads at least a beat apart" then misses by that much and a crash
 * takeover slips by a whole park, past `lockWaitSeconds`. A workaround for core's
 * `SystemScheduler` (reported), not something this adapter needs.
 */
export function punctualRealTime(): ClusterTime {
  return { ...realTime(), scheduler: punctualScheduler() };
}

function punctualScheduler(inner: Scheduler = new SystemScheduler()): Scheduler {
  return {
    now: () => inner.now(),
    schedule(delayMs, callback, priority) {
      const due = inner.now() + Math.max(0, delayMs);
      let task: ScheduledTask;
      const fire = () => {
        const early = due - inner.now();
        if (early > 0) task = inner.schedule(early, fire, priority);
        else callback();
      };
      task = inner.schedule(delayMs, fire, priority);
      return { cancel: () => task.cancel() };
    },
    repeat: (intervalMs, callback, priority) => inner.repeat(intervalMs, callback, priority),
  };
}
