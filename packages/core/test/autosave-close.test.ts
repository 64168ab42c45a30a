import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { stored, testBed } from './helpers.js';

describe('autosave', () => {
  it('saves every autosaveSeconds (30 by default), refreshing the lock time', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const profile = await bed.clock.run(a.load('p1'));
    const loadedAt = bed.clock.now();
    profile.data.coins = 3;
    await bed.clock.advance(29_999);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0 });
    await bed.clock.advance(1);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 3 });
    expect(stored(bed.store, 'p1')?.meta.lock?.time).toBe(loadedAt + 30_000);
  });

  it('a failed save keeps the data and the next autosave writes it', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    profile.data.coins = 4;
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    await expect(bed.clock.run(profile.save())).rejects.toMatchObject({
      code: ErrorCode.BackendFailed,
    });
    expect(profile.data).toEqual({ coins: 4 });
    expect(profile.active).toBe(true);
    expect(bed.log.warnings()[0]).toMatch(/^save of p1 failed; it is kept and retried/);
    await bed.clock.advance(30_000);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 4 });
  });

  it('one stuck autosave does not block the others', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const stuck = await bed.clock.run(a.driver.load('stuck'));
    await bed.clock.advance(1000);
    const other = await bed.clock.run(a.driver.load('other'));
    a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      key: 'PlayerData/stuck',
      times: Number.POSITIVE_INFINITY,
    });
    stuck.data.coins = 1;
    other.data.coins = 2;
    await bed.clock.advance(31_000);
    // A change for each autosave: one with nothing new to store writes nothing (idle-autosave).
    other.data.coins = 3;
    await bed.clock.advance(30_000);
    expect(stored(bed.store, 'stuck')?.data).toEqual({ coins: 0 });
    expect(stored(bed.store, 'other')?.data).toEqual({ coins: 3 });
    expect(bed.events.filter((e) => e.type === 'profile.saved' && e.key === 'other')).toHaveLength(
      2,
    );
  });
});

describe('close', () => {
  it('releases every profile and reports them', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const p1 = await bed.clock.run(a.load('p1'));
    const p2 = await bed.clock.run(a.load('p2'));
    p1.data.coins = 1;
    p2.data.coins = 2;
    const result = await bed.clock.run(a.close());
    expect(result).toEqual({ released: ['p1', 'p2'], unreleased: [] });
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 1 },
      meta: { releasedToken: p1.lockToken },
    });
    expect(stored(bed.store, 'p2')).toMatchObject({
      data: { coins: 2 },
      meta: { releasedToken: p2.lockToken },
    });
    await expect(a.load('p3')).rejects.toMatchObject({ code: ErrorCode.Closed });
  });

  it('returns at its deadline with what it could not release', async () => {
    const bed = testBed();
    const a = bed.server('A');
    await bed.clock.run(a.driver.load('p1'));
    await bed.clock.run(a.driver.load('p2'));
    a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      key: 'PlayerData/p2',
      times: Number.POSITIVE_INFINITY,
    });
    const started = bed.clock.now();
    const result = await bed.clock.run(a.driver.close({ deadlineSeconds: 5 }));
    expect(bed.clock.now() - started).toBe(5000);
    expect(result).toEqual({ released: ['p1'], unreleased: ['p2'] });
    expect(bed.log.warnings()).toContain(
      'close of PlayerData timed out with 1 profile(s) unreleased: p2',
    );
  });
});
