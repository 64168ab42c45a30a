import { DEFAULT_TIMINGS, type HandoffTimings, type Scheduler } from '@datadriver/core';
import { SystemScheduler } from '@datadriver/core/ports';
import { resolveTimings } from '@datadriver/core/rules';
import { VirtualClock } from '@datadriver/core/testing';

/**
 * Time as a scenario sees it. On the virtual clock waits are exact and free; on a real
 * backend they are real, and a scenario asserts them within scaled bounds.
 */
export interface ClusterTime {
  readonly scheduler: Scheduler;
  /** True on the virtual clock: waits can be asserted to the millisecond. */
  readonly exact: boolean;
  now(): number;
  /** Lets `ms` of time pass, with every timer due in it firing. */
  pass(ms: number): Promise<void>;
  /** Lets a little time pass: to the next timer on the virtual clock, a few ms in real time. */
  step(): Promise<void>;
  /** Waits for `promise`, failing after `limitMs`. */
  until<T>(promise: Promise<T>, limitMs?: number): Promise<T>;
}

export function virtualTime(clock = new VirtualClock()): ClusterTime & { clock: VirtualClock } {
  return {
    clock,
    scheduler: clock,
    exact: true,
    now: () => clock.now(),
    pass: (ms) => clock.advance(ms),
    step: async () => {
      const next = clock.nextTimerAt();
      await clock.advanceTo(next === undefined ? clock.now() + 1 : Math.max(next, clock.now()));
    },
    until: (promise, limitMs) => clock.run(promise, limitMs),
  };
}

export function realTime(): ClusterTime {
  const scheduler = new SystemScheduler();
  return {
    scheduler,
    exact: false,
    now: () => scheduler.now(),
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    step: () => new Promise((resolve) => setTimeout(resolve, 2)),
    until: <T>(promise: Promise<T>, limitMs = 60_000): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still pending after ${limitMs} ms`)), limitMs);
      });
      return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
    },
  };
}

/**
 * The lock handoff rules' constants times `scale`, each rounded to a whole millisecond: in floating
 * point 3 s × 0.1 is 0.30000000000000004 s, a 300.00000000000006 ms beat, and on real time two
 * presence reads exactly 300 ms apart (whole milliseconds, as `Date.now()` counts) would then
 * be one beat short, costing the crash takeover a whole park.
 */
export function scaledTimings(scale: number): HandoffTimings {
  const scaled: Record<string, number> = {};
  for (const [name, seconds] of Object.entries(DEFAULT_TIMINGS)) {
    scaled[name] = Math.round(seconds * scale * 1000) / 1000;
  }
  return resolveTimings(scaled as Partial<HandoffTimings>);
}
