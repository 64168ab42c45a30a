import { describe, expect, it } from 'vitest';
import { JOURNAL_DELETE_MAX_MS } from '../src/testing.js';
import { testBed } from './helpers.js';

/**
 * A settled journal's deletion is retried `retryMs` (parkMaxSeconds) apart, doubling up to
 * JOURNAL_DELETE_MAX_MS, and warns once: also when parkMaxSeconds already reaches the cap,
 * where "is the spacing still the first one?" cannot tell the first failure from the rest.
 */
const CASES = [
  { parkMaxSeconds: 2, failures: 6, spacings: [2_000, 4_000, 8_000, 16_000, 30_000, 30_000] },
  { parkMaxSeconds: 30, failures: 4, spacings: [30_000, 30_000, 30_000, 30_000] },
  { parkMaxSeconds: 60, failures: 3, spacings: [30_000, 30_000, 30_000] },
] as const;

describe('deleting a settled journal', () => {
  it('caps its retry spacing at JOURNAL_DELETE_MAX_MS', () => {
    expect(JOURNAL_DELETE_MAX_MS).toBe(30_000);
  });

  it.each(CASES)(
    'parkMaxSeconds $parkMaxSeconds, $failures failed deletions: retried on time, one warning',
    async ({ parkMaxSeconds, failures, spacings }) => {
      const bed = testBed();
      const a = bed.server('A', { timings: { parkMaxSeconds } });
      const alice = await bed.clock.run(a.driver.load('alice'));
      const bob = await bed.clock.run(a.driver.load('bob'));
      const journalKeys = () => bed.store.keys().filter((key) => key.includes('#trade/'));
      // The journal's third write (after prepare and commit) is its deletion.
      a.store.faults.inject({
        kind: 'fail',
        operation: 'update',
        matches: (key) => key.includes('#trade/'),
        skip: 2,
        times: failures,
      });
      await bed.clock.run(
        a.driver.trade(alice, bob, (_x, y) => {
          y.coins += 1;
        }),
      );
      await bed.clock.advance(0); // the settle saves and the first (failing) deletion
      for (const spacingMs of spacings) {
        expect(journalKeys()).toHaveLength(1);
        await bed.clock.advance(spacingMs - 1);
        expect(journalKeys()).toHaveLength(1); // not retried early
        await bed.clock.advance(1);
      }
      expect(journalKeys()).toEqual([]);
      expect(bed.log.warnings()).toHaveLength(1);
      expect(bed.log.warnings()[0]).toContain('could not delete the settled journal');
    },
  );
});
