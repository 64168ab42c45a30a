import { describe, expect, it } from 'vitest';
import { LoopLag } from '../src/cluster/index.js';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Holds the event loop for `ms`, as a busy machine or a long callback would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('LoopLag', () => {
  it('records a stalled event loop, at the cluster clock, from its first due firing', async () => {
    const lag = new LoopLag(() => Date.now());
    lag.start();
    await pause(100); // the usual lateness, from a few dozen firings
    const stalled = { from: Date.now(), to: 0 };
    block(80);
    stalled.to = Date.now();
    await pause(30);
    lag.stop();
    const covered = lag
      .during(stalled)
      .reduce(
        (ms, span) => ms + Math.min(span.to, stalled.to) - Math.max(span.from, stalled.from),
        0,
      );
    // Seen from the first firing due in it (a 5 ms period after it began at most) past the
    // usual lateness: most of the 80 ms, whatever else the machine runs.
    expect(covered).toBeGreaterThanOrEqual(60);
    expect(covered).toBeLessThanOrEqual(stalled.to - stalled.from);
  });

  it('stops sampling when stopped', async () => {
    const lag = new LoopLag(() => Date.now());
    lag.start();
    await pause(80);
    lag.stop();
    const stoppedAt = Date.now();
    block(40);
    await pause(20);
    expect(lag.during({ from: stoppedAt, to: Date.now() })).toEqual([]);
  });

  it('is one sampler for all clusters of a process, stopped when the last lets go', async () => {
    const first = LoopLag.acquire();
    const second = LoopLag.acquire();
    expect(second).toBe(first);
    LoopLag.release(first);
    await pause(100);
    const stalled = { from: Date.now(), to: 0 };
    block(40);
    stalled.to = Date.now();
    await pause(20);
    expect(second.during(stalled).length).toBeGreaterThan(0); // still sampling for the second
    LoopLag.release(second);
    const stoppedAt = Date.now();
    block(40);
    await pause(20);
    expect(second.during({ from: stoppedAt, to: Date.now() })).toEqual([]);
    expect(LoopLag.acquire()).not.toBe(first); // a new one for the next user
  });
});
