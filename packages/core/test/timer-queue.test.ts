/**
 * The driver's queues of timers (`ports/timer-queue.ts`): each timer runs at its due time to
 * the millisecond, on one task of the scheduler however many are set, and a cancelled one never
 * runs. Counted as the virtual clock's pending timers.
 */
import { describe, expect, it } from 'vitest';
import { TimerQueue } from '../src/ports/timer-queue.js';
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
