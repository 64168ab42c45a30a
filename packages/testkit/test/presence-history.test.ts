/**
 * The simulator's presence history: a key lives the contract's lifetime after each write,
 * whatever TTL the writer asked for, until the backend loses it; `absentSpan` is how far apart
 * the first and last instants of a window at which the key was missing lie.
 */
import { describe, expect, it } from 'vitest';
import { PresenceHistory } from '../src/simulation/presence-history.js';

describe('the presence history', () => {
  it('keeps a key the contract lifetime after each write', () => {
    const history = new PresenceHistory(10_000);
    history.record('A', 1_000);
    expect(history.presentThroughout('A', 1_001, 10_999)).toBe(true);
    expect(history.presentThroughout('A', 1_001, 11_000)).toBe(false);
    expect(history.absentSpan('A', 1_001, 10_999)).toBe(-1);
    // Missing from its expiry (11 000) to the end of the window.
    expect(history.absentSpan('A', 5_000, 20_000)).toBe(9_000);
  });

  it('merges beats that overlap, and measures a gap between two', () => {
    const history = new PresenceHistory(10_000);
    for (const at of [0, 3_000, 6_000]) history.record('A', at);
    history.record('A', 20_000);
    expect(history.presentThroughout('A', 1, 15_999)).toBe(true);
    // 16 000 (the third beat's expiry) to 20 000 (the next beat, counted from 20 001).
    expect(history.absentSpan('A', 1, 29_999)).toBe(4_000);
  });

  it('loses a key at once, until its next write', () => {
    const history = new PresenceHistory(10_000);
    history.record('A', 0);
    history.lost('A', 2_000);
    history.record('A', 3_000);
    expect(history.presentThroughout('A', 1, 9_000)).toBe(false);
    expect(history.absentSpan('A', 1, 12_000)).toBe(1_000);
    expect(history.presentThroughout('A', 3_001, 12_999)).toBe(true);
  });

  it('says how long a key had been missing without a break at an instant', () => {
    const history = new PresenceHistory(10_000);
    for (const at of [0, 3_000]) history.record('A', at);
    history.record('A', 20_000);
    // Present from 1 to 12 999 (the second beat's expiry is 13 000), then 20 001 to 29 999.
    expect(history.absentFor('A', 12_999)).toBe(-1);
    expect(history.absentFor('A', 13_000)).toBe(0);
    expect(history.absentFor('A', 16_000)).toBe(3_000);
    expect(history.absentFor('A', 20_000)).toBe(7_000);
    expect(history.absentFor('A', 20_001)).toBe(-1);
    expect(history.absentFor('A', 40_000)).toBe(10_000);
    expect(history.absentFor('never-written', 5_000)).toBe(5_000);
  });
});
