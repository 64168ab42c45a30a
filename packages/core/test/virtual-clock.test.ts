import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../src/testing.js';

/** A chain a timer starts: `depth` awaits of microtasks, then `macrotasks` immediates. */
function chain(clock: VirtualClock, depth: number, macrotasks: number): { done: () => boolean } {
  let done = false;
  clock.schedule(100, () => {
    void (async () => {
      for (let i = 0; i < depth; i += 1) await Promise.resolve();
      for (let i = 0; i < macrotasks; i += 1) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      done = true;
    })();
  });
  return { done: () => done };
}

describe('VirtualClock settling', () => {
  it('lets a timer’s promise chain of any depth run before advance returns', async () => {
    const clock = new VirtualClock(0);
    const work = chain(clock, 10_000, 0);
    await clock.advance(100);
    expect(work.done()).toBe(true);
  });

  it('by default lets one turn of macrotasks pass, not two', async () => {
    const clock = new VirtualClock(0);
    const work = chain(clock, 3, 2);
    await clock.advance(100);
    expect(work.done()).toBe(false);
  });

  it('lets settleTurns turns pass for a port that settles through macrotasks', async () => {
    const clock = new VirtualClock(0, { settleTurns: 3 });
    const work = chain(clock, 3, 2);
    await clock.advance(100);
    expect(work.done()).toBe(true);
  });

  it.each([0, 1.5, Number.NaN, -1])('refuses settleTurns %s with a RangeError', (turns) => {
    expect(() => new VirtualClock(0, { settleTurns: turns })).toThrow(RangeError);
  });
});
