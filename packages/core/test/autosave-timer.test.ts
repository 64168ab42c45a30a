/**
 * Each profile has one autosave timer (`session/autosave.ts`): none once it is released, and
 * still one after a retained profile is adopted (its timer ran on through the failed leave
 * save, and adoption starts it again). Counted as the virtual clock's pending timers.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { testBed } from './helpers.js';

describe("a profile's autosave timer", () => {
  it('is one while the profile is held, none once it is released', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const idle = bed.clock.pending;
    const profile = await bed.clock.run(a.driver.load('p1'));
    expect(bed.clock.pending).toBe(idle + 1);
    await bed.clock.run(profile.release());
    expect(bed.clock.pending).toBe(idle);
    await bed.clock.advance(120_000);
    expect(bed.clock.pending).toBe(idle);
  });

  it('stays one after an adoption: a retained profile adopted autosaves once a period', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const idle = bed.clock.pending;
    const profile = await bed.clock.run(a.driver.load('p1'));
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    await expect(bed.clock.run(profile.release())).rejects.toMatchObject({
      code: ErrorCode.BackendFailed,
    });
    expect(bed.clock.pending).toBe(idle + 1);
    const again = await bed.clock.run(a.driver.load('p1'));
    expect(again).toBe(profile);
    expect(bed.clock.pending).toBe(idle + 1);
  });
});
