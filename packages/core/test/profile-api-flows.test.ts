/**
 * The profile's own members where the game can misuse them (`session/profile.ts`,
 * `session/save-hooks.ts`): `profile.data = …` replaces what is written, `send` on an inactive
 * profile or during an undecided trade changes nothing and says why, a bad user id names
 * itself, and an async `afterSave` that rejects is warned like one that throws. Exact, on the
 * virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { stored, testBed, tradeWithHungCommit } from './helpers.js';

describe('the profile API, misused', () => {
  it('profile.data = … replaces the data the next save writes', async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    profile.data = { coins: 42 };
    await bed.clock.run(profile.save());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 42 });
  });

  it('send on a released profile: Data.Inactive, nothing queued', async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    await bed.clock.run(profile.release());
    let error: unknown;
    try {
      profile.send('p2', { coins: 1 }, { id: 't1' });
    } catch (caught) {
      error = caught;
    }
    expect((error as DataDriverError).code).toBe(ErrorCode.Inactive);
  });

  it('send during an undecided trade: Data.InvalidArgument with the words, nothing queued', async () => {
    const bed = testBed();
    const { alice, commit } = await tradeWithHungCommit(bed, bed.server('A'));
    await bed.clock.advance(10);
    let error: unknown;
    try {
      alice.send('carol', { coins: 1 }, { id: 't1' });
    } catch (caught) {
      error = caught;
    }
    expect((error as DataDriverError).message).toBe(
      'Data.InvalidArgument: a trade on alice is undecided: send once it is; nothing was changed',
    );
    expect((error as DataDriverError).details).toStrictEqual({ key: 'alice' });
    commit.release();
  });

  it('send without options (from JavaScript): Data.InvalidArgument, nothing queued', async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    let error: unknown;
    try {
      (profile.send as (to: string, body: unknown) => void)('p2', { coins: 1 });
    } catch (caught) {
      error = caught;
    }
    expect((error as DataDriverError).code).toBe(ErrorCode.InvalidArgument);
    await bed.clock.run(profile.save());
    expect(stored(bed.store, 'p1')?.meta.messages).toBeUndefined();
  });

  it('a user id that is not well-formed text names itself in the error', async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    let error: unknown;
    try {
      profile.addUserId('\uD800');
    } catch (caught) {
      error = caught;
    }
    expect((error as DataDriverError).message).toContain('a user id');
    expect(profile.userIds).toEqual([]);
  });

  it('an async afterSave that rejects is warned, and the save stays resolved', async () => {
    const bed = testBed();
    const driver = bed.driver('A', {
      afterSave: async () => {
        throw new Error('the leaderboard is down');
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 1;
    await bed.clock.run(profile.save());
    await bed.clock.advance(0);
    expect(bed.log.warnings()).toEqual([
      'Data.HookFailed: afterSave failed for p1: the leaderboard is down; the write had landed',
    ]);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1 });
  });
});
