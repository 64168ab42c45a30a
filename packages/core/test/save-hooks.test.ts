/**
 * Save hooks: `beforeSave(profile, reason)` right before each write of the data, whose change
 * is written; `beforeRelease(profile, reason)` once as the session ends, with why; `afterSave`
 * with the data as written. A hook that throws changes nothing: the data is as before it, a
 * save is refused with nothing written (`Data.HookFailed`), a release goes on, and it is warned.
 */
import { describe, expect, it } from 'vitest';
import type { ReleaseReason, SaveReason } from '../src/index.js';
import { DataDriver, DataDriverError, ErrorCode, Handoff } from '../src/index.js';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '../src/testing.js';
import { recordingLogger, stored, testBed } from './helpers.js';

type Data = { coins: number; stamp?: number };

describe('beforeSave', () => {
  it('runs right before each write with its reason, and what it changes is written', async () => {
    const bed = testBed();
    const reasons: SaveReason[] = [];
    const driver = bed.driver('A', {
      beforeSave: (profile, reason) => {
        reasons.push(reason);
        (profile.data as Data).stamp = bed.clock.now();
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    await bed.clock.run(profile.save());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0, stamp: bed.clock.now() });
    await bed.clock.advance(30_000); // one autosave
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0, stamp: bed.clock.now() });
    await bed.clock.advance(1_000);
    await bed.clock.run(profile.release());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0, stamp: bed.clock.now() });
    expect(reasons).toEqual(['manual', 'autosave', 'release']);
  });

  it('one that throws on a save: Data.HookFailed, the data as before it, nothing written, one warning', async () => {
    const bed = testBed();
    let broken = true;
    const driver = bed.driver('A', {
      beforeSave: (profile) => {
        (profile.data as Data).coins += 1_000; // changed, then it throws
        if (broken) throw new Error('the shop is down');
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 5;
    const before = bed.store.peekJson('PlayerData/p1');
    const error = await bed.clock.run(profile.save().catch((failure: unknown) => failure));
    expect(error).toBeInstanceOf(DataDriverError);
    expect((error as DataDriverError).code).toBe(ErrorCode.HookFailed);
    expect(((error as DataDriverError).cause as Error).message).toBe('the shop is down');
    expect(profile.data).toEqual({ coins: 5 });
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(bed.log.warnings()).toEqual([
      'Data.HookFailed: beforeSave failed for p1: the shop is down; the data is as before it and nothing was written',
      expect.stringContaining('save of p1 failed'),
    ]);
    broken = false;
    await bed.clock.run(profile.save());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1_005 });
  });

  it('one that returns a promise is refused the same way: the data must change synchronously', async () => {
    const bed = testBed();
    const driver = bed.driver('A', {
      beforeSave: async (profile) => {
        (profile.data as Data).coins = 99;
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    const error = await bed.clock.run(profile.save().catch((failure: unknown) => failure));
    expect((error as DataDriverError).code).toBe(ErrorCode.HookFailed);
    expect((error as DataDriverError).message).toContain('it returned a promise');
    expect(profile.data).toEqual({ coins: 0 });
  });

  it('one that throws at the release: the release goes on with the data as before it, and it is warned', async () => {
    const bed = testBed();
    const driver = bed.driver('A', {
      beforeSave: (profile, reason) => {
        if (reason === 'release') {
          (profile.data as Data).coins = -1;
          throw new Error('no');
        }
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 7;
    await bed.clock.run(profile.release());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 7 });
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(bed.log.warnings()).toEqual([
      'Data.HookFailed: beforeSave failed for p1: no; the data is as before it and the release goes on',
    ]);
  });
});

describe('beforeRelease', () => {
  function fleet() {
    const bed = testBed();
    const messenger = new MemoryMessenger();
    const presence = new MemoryPresence(bed.clock);
    const ended: Array<[string, ReleaseReason, number]> = [];
    const server = (jobId: string) => {
      const handoff = new Handoff({ jobId, messenger, presence, scheduler: bed.clock });
      const driver = bed.driver(jobId, {
        handoff,
        beforeRelease: (profile, reason) => {
          ended.push([jobId, reason, profile.data.coins]);
          profile.data.coins += 1; // written by the release
        },
      });
      const host = new MemoryHost(jobId);
      driver.attach(host);
      return { driver, host };
    };
    return { bed, ended, server };
  }

  it('says why each session ends: left, joined elsewhere, rejoined, manual, shutdown; once each, and its change is written', async () => {
    const { bed, ended, server } = fleet();
    const a = server('A');
    const b = server('B');
    a.host.join('left');
    a.host.join('hop');
    a.host.join('twice');
    await bed.clock.advance(0);
    a.host.leave('left');
    b.host.join('hop'); // still on A
    a.host.join('twice'); // a newer connection here
    await bed.clock.advance(5_000);
    const manual = await bed.clock.run(a.driver.load('manual'));
    await bed.clock.run(manual.release());
    await bed.clock.run(b.driver.close());
    expect(ended).toEqual([
      ['A', 'left', 0],
      ['A', 'rejoined', 0],
      ['A', 'joined-elsewhere', 0],
      ['A', 'manual', 0],
      ['B', 'shutdown', 1],
    ]);
    expect(stored(bed.store, 'left')?.data).toEqual({ coins: 1 });
    // Released by A with the hook's coin, loaded by B, released by B's shutdown with another.
    expect(stored(bed.store, 'hop')?.data).toEqual({ coins: 2 });
  });

  it('runs once even when the release is retried: the retry keeps the first reason', async () => {
    const bed = testBed();
    const reasons: ReleaseReason[] = [];
    const { driver, store } = bed.server('A', {
      beforeRelease: (_profile, reason) => void reasons.push(reason),
    });
    const profile = await bed.clock.run(driver.load('p1'));
    store.faults.inject({ kind: 'fail', operation: 'update' });
    await bed.clock.run(profile.release().catch(() => undefined)); // retained
    await bed.clock.advance(30_000); // the autosave tick retries the release
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(reasons).toEqual(['manual']);
  });
});

describe('afterSave', () => {
  it('gets a copy of the data as written, the reason and the version; one that throws is warned and the save resolves', async () => {
    const bed = testBed();
    const saved: Array<{ reason: SaveReason; data: object; version: number | undefined }> = [];
    const driver = bed.driver('A', {
      afterSave: (profile, entry) => {
        saved.push(entry);
        if (entry.reason === 'manual') throw new Error('the leaderboard is down');
        profile.data.coins += 0;
      },
    });
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 3;
    await bed.clock.run(profile.save());
    profile.data.coins = 4; // not the saved data
    await bed.clock.run(profile.release());
    expect(saved).toEqual([
      { reason: 'manual', data: { coins: 3 }, version: stored(bed.store, 'p1')!.meta.version - 1 },
      { reason: 'release', data: { coins: 4 }, version: stored(bed.store, 'p1')!.meta.version },
    ]);
    expect(bed.log.warnings()).toEqual([
      'Data.HookFailed: afterSave failed for p1: the leaderboard is down; the write had landed',
    ]);
  });
});

describe('options', () => {
  it('a hook that is not a function: Data.InvalidConfig naming it', () => {
    const clock = testBed().clock;
    for (const name of ['beforeSave', 'beforeRelease', 'afterSave']) {
      expect(
        () =>
          new DataDriver({
            name: 'PlayerData',
            defaults: {},
            store: new MemoryStore(),
            scheduler: clock,
            logger: recordingLogger().logger,
            [name]: 'save',
          }),
      ).toThrow(`${name} must be a function, got a string ("save")`);
    }
  });
});
