/**
 * What a release checks before it writes (`session/release-check.ts`): a schema whose verdict
 * comes later (an async Standard Schema) refuses the release as one that answers at once does:
 * the release rejects with the schema's `Data.InvalidData`, nothing is written, the profile
 * stays active, and one `profile.save-failed` (reason `release`, 0 ms: before any write) says so.
 * Data changed after that check is checked again by the leave save, which retains the profile.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, type DataSchema, ErrorCode } from '../src/index.js';
import { testBed } from './helpers.js';

const laterSchema: DataSchema<{ coins: number }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: async (value) =>
      (value as { coins: number }).coins >= 0
        ? { value: value as { coins: number } }
        : { issues: [{ message: 'no debt', path: ['coins'] }] },
  },
};

describe('a release refused by a schema whose verdict comes later', () => {
  it('rejects with Data.InvalidData, writes nothing, keeps the profile and reports one failed save', async () => {
    const bed = testBed();
    const driver = bed.driver('A', { schema: laterSchema });
    const profile = await bed.clock.run(driver.load('p1'));
    const before = bed.store.peekJson('PlayerData/p1');
    profile.data.coins = -5;
    const error = await bed.clock.run(
      profile.release().catch((failure: DataDriverError) => failure),
    );
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(profile.active).toBe(true);
    const failed = bed.events.filter((event) => event.type === 'profile.save-failed');
    expect(failed).toEqual([
      expect.objectContaining({
        type: 'profile.save-failed',
        key: 'p1',
        reason: 'release',
        error,
        durationMs: 0,
      }),
    ]);
    profile.data.coins = 5;
    await bed.clock.run(profile.release());
    expect(bed.store.peek('PlayerData/p1')).toMatchObject({
      data: { coins: 5 },
      meta: { releasedToken: profile.lockToken },
    });
  });

  it('refused again inside the write queue (the data changed after the first check): rejects, writes nothing, retains the profile and reports profile.release-failed once', async () => {
    const bed = testBed();
    const driver = bed.driver('A', { schema: laterSchema });
    const profile = await bed.clock.run(driver.load('p1'));
    const before = bed.store.peekJson('PlayerData/p1');
    profile.data.coins = 5;
    const release = profile.release().catch((failure: DataDriverError) => failure);
    // The release's own check has the data as it was at the call; the leave save checks again.
    profile.data.coins = -5;
    const error = await bed.clock.run(release);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(profile.active).toBe(false);
    const failed = bed.events.filter((event) => event.type === 'profile.release-failed');
    expect(failed).toEqual([
      expect.objectContaining({ type: 'profile.release-failed', key: 'p1', error }),
    ]);
    profile.data.coins = 5;
    await bed.clock.run(profile.release());
    expect(bed.store.peek('PlayerData/p1')).toMatchObject({
      data: { coins: 5 },
      meta: { releasedToken: profile.lockToken },
    });
  });
});
