/**
 * The driver's queues of timers (`ports/timer-queue.ts`): each timer runs at its due time to
 * the millisecond, on one task of the scheduler however many are set, and a cancelled one never
 * runs. Counted as the virtual clock's pending timers.
 */
import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../src/ports/scheduler.js';
import { TimerQueue } from '../src/ports/timer-queue.js';
import { Autosave } from '../src/session/autosave.js';
import { VirtualClock } from '../src/testing.js';

function queueOnClock() {
  const clock = new VirtualClock();
  const start = clock.now();
  const queue = new TimerQueue(clock, 'normal');
  const ran: Array<[string, number]> = [];
  const at = (name: string, ms: number) =>
    queue.at(start + ms, () => ran.push([name, clock.now() - start]));
  return { clock, queue, ran, at, start };
}

describe('a queue of timers', () => {
  it('runs each timer at its due time, in the order set, on one task of the clock', async () => {
    const { clock, ran, at } = queueOnClock();
    at('a', 100);
    at('b', 250);
    at('c', 250);
    at('d', 400);
    expect(clock.pending).toBe(1);
    await clock.advance(1_000);
    expect(ran).toEqual([
      ['a', 100],
      ['b', 250],
      ['c', 250],
      ['d', 400],
    ]);
    expect(clock.pending).toBe(0);
  });

  it('never runs a cancelled timer, and leaves no task once every timer is cancelled', async () => {
    const { clock, ran, at } = queueOnClock();
    const a = at('a', 100);
    const b = at('b', 200);
    const c = at('c', 300);
    a.cancel();
    c.cancel();
    await clock.advance(1_000);
    expect(ran).toEqual([['b', 200]]);
    const d = at('d', 1_100);
    expect(clock.pending).toBe(1);
    d.cancel();
    d.cancel(); // idempotent
    b.cancel(); // already ran: nothing to do
    expect(clock.pending).toBe(0);
    await clock.advance(1_000);
    expect(ran).toEqual([['b', 200]]);
  });

  it('keeps the later timers on time when the first one is cancelled', async () => {
    const { clock, ran, at } = queueOnClock();
    const a = at('a', 100);
    at('b', 300);
    a.cancel();
    await clock.advance(299);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual([['b', 300]]);
  });

  it('gives a timer due before the last one a task of its own, on time', async () => {
    const { clock, ran, at } = queueOnClock();
    at('late', 500);
    const early = at('early', 200);
    expect(clock.pending).toBe(2);
    await clock.advance(1_000);
    expect(ran).toEqual([
      ['early', 200],
      ['late', 500],
    ]);
    early.cancel(); // already ran: nothing to do
    expect(clock.pending).toBe(0);
  });

  it('runs a timer set by a callback behind others still due at their own times', async () => {
    const { clock, queue, ran, at, start } = queueOnClock();
    queue.at(start + 100, () => {
      ran.push(['first', clock.now() - start]);
      at('set in the run', 900);
    });
    at('second', 400);
    await clock.advance(1_000);
    expect(ran).toEqual([
      ['first', 100],
      ['second', 400],
      ['set in the run', 900],
    ]);
  });

  it('repeats when each run sets the next: one period after each run', async () => {
    const { clock, queue, ran, start } = queueOnClock();
    const every = (ms: number) => {
      queue.at(clock.now() + ms, () => {
        ran.push(['tick', clock.now() - start]);
        if (ran.length < 3) every(ms);
      });
    };
    every(30_000);
    await clock.advance(200_000);
    expect(ran).toEqual([
      ['tick', 30_000],
      ['tick', 60_000],
      ['tick', 90_000],
    ]);
    expect(clock.pending).toBe(0);
  });

  it('keeps one task for a thousand timers, and none once they have run', async () => {
    const { clock, ran, at } = queueOnClock();
    for (let index = 0; index < 1_000; index += 1) at(`t${index}`, 10 + index);
    expect(clock.pending).toBe(1);
    await clock.advance(2_000);
    expect(ran).toHaveLength(1_000);
    expect(ran.every(([name, ms]) => ms === 10 + Number(name.slice(1)))).toBe(true);
    expect(clock.pending).toBe(0);
  });
});

/** A clock whose wall time a test can step, over a virtual clock's timers. */
function steppedClock() {
  const clock = new VirtualClock();
  let offset = 0;
  const scheduler: Scheduler = {
    now: () => clock.now() + offset,
    schedule: (ms, callback, priority) => clock.schedule(ms, callback, priority),
    repeat: (ms, callback, priority) => clock.repeat(ms, callback, priority),
  };
  return { clock, scheduler, step: (ms: number) => (offset += ms) };
}

describe('a queue of timers on a clock that steps', () => {
  it('runs a timer set by a callback in a later run: a clock stepped back cannot keep one run going', async () => {
    const { clock, scheduler, step } = steppedClock();
    const queue = new TimerQueue(scheduler, 'normal');
    let runs = 0;
    const again = (): void => {
      runs += 1;
      if (runs === 1) step(-60_000); // the wall clock steps back two periods mid-run
      if (runs < 100) queue.at(scheduler.now() + 30_000, again);
    };
    queue.at(scheduler.now() + 30_000, again);
    await clock.advance(30_000);
    expect(runs).toBe(1);
    await clock.advance(29_999);
    expect(runs).toBe(1);
    await clock.advance(1);
    expect(runs).toBe(2);
  });

  it('keeps the autosaves a forward step made fall due together apart after it', async () => {
    const { clock, scheduler, step } = steppedClock();
    const queue = new TimerQueue(scheduler, 'background');
    const ticks: Array<[string, number]> = [];
    const start = clock.now();
    const a = new Autosave(queue, scheduler, 30_000, {
      autosaveDue: () => ticks.push(['a', clock.now() - start]),
    });
    a.start();
    await clock.advance(10_000);
    const b = new Autosave(queue, scheduler, 30_000, {
      autosaveDue: () => ticks.push(['b', clock.now() - start]),
    });
    b.start();
    await clock.advance(10_000); // a due at 30 s, b at 40 s (wall and virtual alike)
    step(25_000); // the wall clock jumps: both fall due at a's wake
    await clock.advance(10_000);
    expect(ticks).toEqual([
      ['a', 30_000],
      ['b', 30_000],
    ]);
    ticks.length = 0;
    await clock.advance(60_000);
    // Each on its own phase again, on the stepped wall clock: a at 60 and 90 s, b at 70 and 100 s.
    expect(ticks).toEqual([
      ['a', 35_000],
      ['b', 45_000],
      ['a', 65_000],
      ['b', 75_000],
    ]);
    a.stop();
    b.stop();
    expect(clock.pending).toBe(0);
  });
});
