import { describe, expect, it } from 'vitest';
import type { SetTimer } from '../src/ports/system-scheduler.js';
import { SystemScheduler } from '../src/ports.js';

/**
 * Node timers whose firing the test controls: `fire()` runs every armed timer whatever the
 * clock says, as Node does when its cached loop time is behind `Date.now()`.
 */
function fakeTimers() {
  let time = 1_000;
  let armed: Array<{ callback: () => void; delayMs: number; background: boolean }> = [];
  const setTimer: SetTimer = (callback, delayMs, background) => {
    const entry = { callback, delayMs, background };
    armed.push(entry);
    return () => {
      armed = armed.filter((other) => other !== entry);
    };
  };
  return {
    scheduler: new SystemScheduler({ now: () => time, setTimer }),
    set: (ms: number) => {
      time = ms;
    },
    armed: () => armed.map(({ delayMs, background }) => ({ delayMs, background })),
    fire: () => {
      const due = armed;
      armed = [];
      for (const entry of due) entry.callback();
    },
  };
}

describe('SystemScheduler', () => {
  it('a one-shot timer that wakes early is re-armed for the rest, and runs once at its due time', () => {
    const timers = fakeTimers();
    let runs = 0;
    timers.scheduler.schedule(3_000, () => {
      runs += 1;
    });
    expect(timers.armed()).toEqual([{ delayMs: 3_000, background: false }]);
    timers.set(3_999); // 1 ms early
    timers.fire();
    expect(runs).toBe(0);
    expect(timers.armed()).toEqual([{ delayMs: 1, background: false }]);
    timers.set(4_000);
    timers.fire();
    expect(runs).toBe(1);
    expect(timers.armed()).toEqual([]);
  });

  it('a cancel after an early wake disarms the re-armed timer', () => {
    const timers = fakeTimers();
    let runs = 0;
    const task = timers.scheduler.schedule(
      500,
      () => {
        runs += 1;
      },
      'background',
    );
    timers.set(1_498);
    timers.fire();
    expect(timers.armed()).toEqual([{ delayMs: 2, background: true }]);
    task.cancel();
    expect(timers.armed()).toEqual([]);
    task.cancel(); // idempotent
    expect(runs).toBe(0);
  });

  it('a repeating job never runs early: each run is due a full interval after the last one', () => {
    const timers = fakeTimers();
    const ranAt: number[] = [];
    const job = timers.scheduler.repeat(
      3_000,
      () => ranAt.push(timers.scheduler.now()),
      'background',
    );
    timers.set(3_998);
    timers.fire(); // 2 ms early
    expect(ranAt).toEqual([]);
    timers.set(4_000);
    timers.fire();
    timers.set(7_001); // 1 ms late: the next run is due at 10_001
    timers.fire();
    timers.set(10_000);
    timers.fire();
    expect(ranAt).toEqual([4_000, 7_001]);
    expect(timers.armed()).toEqual([{ delayMs: 1, background: true }]);
    job.cancel();
    expect(timers.armed()).toEqual([]);
  });

  it('a repeating job cancelled from inside its callback stops', () => {
    const timers = fakeTimers();
    let runs = 0;
    const job = timers.scheduler.repeat(100, () => {
      runs += 1;
      job.cancel();
    });
    timers.set(1_100);
    timers.fire();
    expect(runs).toBe(1);
    expect(timers.armed()).toEqual([]);
  });

  it('a wait past the longest Node timer is armed in parts', () => {
    const timers = fakeTimers();
    const maxTimerMs = 2 ** 31 - 1;
    timers.scheduler.schedule(maxTimerMs + 5, () => undefined);
    expect(timers.armed()).toEqual([{ delayMs: maxTimerMs, background: false }]);
    timers.set(1_000 + maxTimerMs);
    timers.fire();
    expect(timers.armed()).toEqual([{ delayMs: 5, background: false }]);
  });

  it('with real timers, a callback sees Date.now() at or past its due time', async () => {
    const scheduler = new SystemScheduler();
    const lateness = await Promise.all(
      [1, 2, 3, 5].map(
        (delayMs) =>
          new Promise<number>((resolve) => {
            const due = scheduler.now() + delayMs;
            scheduler.schedule(delayMs, () => resolve(scheduler.now() - due));
          }),
      ),
    );
    for (const ms of lateness) expect(ms).toBeGreaterThanOrEqual(0);
  });
});
