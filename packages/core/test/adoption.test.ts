import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { toStoreRecord } from '../src/rules.js';
import { MemoryHost } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

async function retained() {
  const bed = testBed();
  const a = bed.server('A');
  const profile = await bed.clock.run(a.driver.load('p1'));
  profile.data.coins = 7;
  a.store.faults.inject({ kind: 'fail', operation: 'update' });
  await expect(bed.clock.run(profile.release())).rejects.toMatchObject({
    code: ErrorCode.BackendFailed,
  });
  return { bed, a, profile };
}

describe('adoption of a retained profile', () => {
  it('kept: the same profile continues and its lock is re-asserted', async () => {
    const { bed, a, profile } = await retained();
    const again = await bed.clock.run(a.driver.load('p1'));
    expect(again).toBe(profile);
    expect(profile.active).toBe(true);
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 7 },
      meta: { lock: { token: profile.lockToken } },
    });
  });

  it('lost: another server took the lock; the profile deactivates and the record loads normally', async () => {
    const { bed, a, profile } = await retained();
    const record = stored(bed.store, 'p1')!;
    bed.store.put(
      'PlayerData/p1',
      toStoreRecord({
        data: { coins: 3 },
        meta: { version: record.meta.version + 2, releasedToken: 'B-token' },
      }),
    );
    const loaded = await bed.clock.run(a.driver.load('p1'));
    expect(loaded).not.toBe(profile);
    expect(profile.active).toBe(false);
    expect(loaded.data).toEqual({ coins: 3 });
    expect(bed.events.find((e) => e.type === 'profile.adopted')).toMatchObject({ outcome: 'lost' });
    expect(bed.log.warnings()).toContain('lost the lock of p1; the profile is deactivated.');
  });

  it('unsaved: the backend still fails; the player keeps the profile, the driver warns, autosave retries', async () => {
    const { bed, a, profile } = await retained();
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    const again = await bed.clock.run(a.driver.load('p1'));
    expect(again).toBe(profile);
    expect(profile.active).toBe(true);
    expect(bed.log.warnings()).toContain(
      'adopted the retained profile of p1, but could not save it yet; autosaves keep retrying.',
    );
    profile.data.coins = 8;
    await bed.clock.advance(30_000);
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 8 },
      meta: { lock: { token: profile.lockToken } },
    });
  });

  it('lost: an adoption that finds the lock gone kicks nobody, so the player rejoining stays', async () => {
    // Found by the cluster simulator (kick-justified): the adoption save that found the lock
    // gone kicked the player who had left, and a host that kicks by player id (as MemoryHost
    // does) removed the player rejoining instead of loading the record for them.
    const bed = testBed();
    const a = bed.server('A');
    const host = new MemoryHost('A');
    a.driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    a.driver.profile('p1')!.data.coins = 7;
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    host.leave('p1'); // the leave save fails: A retains the profile
    await bed.clock.advance(0);
    expect(bed.events.some((e) => e.type === 'profile.release-failed')).toBe(true);
    const record = stored(bed.store, 'p1')!;
    bed.store.put(
      'PlayerData/p1',
      toStoreRecord({
        data: { coins: 3 },
        meta: { version: record.meta.version + 2, releasedToken: 'B-token' },
      }),
    );
    host.join('p1');
    await bed.clock.advance(0);
    expect(bed.events.find((e) => e.type === 'profile.adopted')).toMatchObject({ outcome: 'lost' });
    expect(host.kicks).toEqual([]);
    expect(host.has('p1')).toBe(true);
    expect(a.driver.profile('p1')?.data).toEqual({ coins: 3 });
  });

  it('unsaved after a lost leave-save response: the autosave that lands retakes the lock', async () => {
    // The leave save committed but its response was lost, and the adoption save failed: the
    // record is unlocked with this profile's own releasedToken. The autosave retrying the
    // adoption used to find "no lock" and end the session, losing what the player earned.
    const bed = testBed();
    const a = bed.server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    profile.data.coins = 7;
    a.store.faults.inject({ kind: 'lose-response', operation: 'update' });
    await expect(bed.clock.run(profile.release())).rejects.toMatchObject({
      code: ErrorCode.BackendFailed,
    });
    expect(stored(bed.store, 'p1')?.meta).toMatchObject({ releasedToken: profile.lockToken });
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    const again = await bed.clock.run(a.driver.load('p1'));
    expect(again).toBe(profile);
    expect(bed.events.find((e) => e.type === 'profile.adopted')).toMatchObject({
      outcome: 'unsaved',
    });
    profile.data.coins = 8;
    await bed.clock.advance(30_000);
    expect(profile.active).toBe(true);
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 8 },
      meta: { lock: { token: profile.lockToken } },
    });
  });

  it('a retained profile whose release keeps failing retries it on the autosave period', async () => {
    const { bed, a, profile } = await retained();
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    await bed.clock.advance(30_000); // first retry fails
    expect(stored(bed.store, 'p1')?.meta.lock).toBeDefined();
    await bed.clock.advance(30_000); // second retry lands
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 7 },
      meta: { releasedToken: profile.lockToken },
    });
    expect(profile.active).toBe(false);
  });
});
