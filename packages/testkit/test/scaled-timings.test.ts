import { DEFAULT_TIMINGS } from '@datadriver/core';
import { describe, expect, it } from 'vitest';
import { scaledTimings } from '../src/cluster/index.js';

describe('scaledTimings', () => {
  it("is each of the lock handoff rules' constants times the scale, to a whole millisecond", () => {
    // 3 s × 0.1 in floating point is a 300.00000000000006 ms beat: one read exactly 300 ms
    // after another would not be a beat later.
    expect(scaledTimings(0.1).beatSeconds * 1000).toBe(300);
    for (const scale of [1, 0.15, 0.1, 0.08, 0.07, 0.05]) {
      const timings = scaledTimings(scale);
      for (const [name, seconds] of Object.entries(DEFAULT_TIMINGS)) {
        const ms = timings[name as keyof typeof timings] * 1000;
        expect(Number.isInteger(ms), `${name} at ${scale}: ${ms} ms`).toBe(true);
        expect(Math.abs(ms - seconds * scale * 1000)).toBeLessThanOrEqual(0.5);
      }
    }
    expect(scaledTimings(1)).toEqual(DEFAULT_TIMINGS);
  });
});
