/**
 * The seed's defaults, with no option set: a lock is stale after LockTtlSeconds 180 plus
 * LockSkewSeconds 60, and a joiner retries 0.5 s apart, doubling to at most 2 s.
 */
import { describe, expect, it } from 'vitest';
import { testBed } from './helpers.js';

describe('defaults', () => {
  it("takes a dead holder's lock by age after 180 + 60 s, retrying 0.5 s doubling to 2 s apart", async () => {
    const bed = testBed();
    const a = bed.server('A');
    const b = bed.server('B', { lockWaitSeconds: 300 }); // longer than the age, to see it end
    await bed.clock.run(a.driver.load('p1'));
    const lockTime = bed.clock.now();
    a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY }); // A is dead
    const attempts: number[] = [];
    const update = b.store.update.bind(b.store);
    b.store.update = (key, transform, options) => {
      attempts.push(bed.clock.now() - lockTime);
      return update(key, transform, options);
    };
    const profile = await bed.clock.run(b.driver.load('p1'));
    expect(attempts.slice(0, 6)).toEqual([0, 500, 1_500, 3_500, 5_500, 7_500]);
    // Every 2 s from 3.5 s on: the attempt at 239.5 s still finds the lock fresh.
    expect(attempts.at(-1)).toBe(241_500);
    expect(bed.clock.now() - lockTime).toBe(241_500);
    expect(profile.active).toBe(true);
    expect(bed.events).toContainEqual(
      expect.objectContaining({ type: 'lock.taken', key: 'p1', reason: 'stale' }),
    );
  });
});
