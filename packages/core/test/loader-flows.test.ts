/**
 * What a load does around its take (`load/loader.ts`): the lost-lock kick once the game has
 * the profile (and never while it lands), a driver closed before or during a load, a signal
 * aborted before the call, a take given back after an abort, and what `load.started` says.
 * Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode, type ReleaseReason } from '../src/index.js';
import { topicOf, toStoreRecord } from '../src/rules.js';
import { MemoryHost, type MemoryPlayer } from '../src/testing.js';
import { faultyFleet, stored, testBed } from './helpers.js';

function server(bed = testBed()) {
  const ended: Array<[string, ReleaseReason]> = [];
  const { driver, store } = bed.server('A', {
    beforeRelease: (profile, reason) => void ended.push([profile.key, reason]),
  });
  return { bed, driver, store, ended };
}

describe('a profile whose lock another server took after it loaded', () => {
  it('its player is kicked with the lost-lock message (cause lock-lost) at the next write, and it deactivates', async () => {
    const { bed, driver, ended } = server();
    const host = new MemoryHost('A');
    driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    const profile = driver.profile('p1')!;
    const record = stored(bed.store, 'p1')!;
    // Another server's lock, as if it had taken this one.
    const other = { jobId: 'B', token: 'B-1', time: bed.clock.now(), presence: true };
    bed.store.put(
      'PlayerData/p1',
      toStoreRecord({ data: record.data, meta: { version: record.meta.version + 1, lock: other } }),
    );
    profile.data.coins = 3;
    const error = await bed.clock.run(profile.save().catch((caught: DataDriverError) => caught));
    expect(error).toMatchObject({ code: ErrorCode.LockLost });
    expect(host.kicks).toEqual([
      { player: 'p1', message: 'Your data was loaded on another server.' },
    ]);
    expect(bed.events.filter((e) => e.type === 'profile.kicked')).toEqual([
      expect.objectContaining({ key: 'p1', cause: 'lock-lost' }),
    ]);
    expect(profile.active).toBe(false);
    expect(stored(bed.store, 'p1')?.meta.lock).toEqual(other);
    // The lost lock has its own event, not a failed save's.
    expect(bed.events.filter((e) => e.type === 'profile.save-failed')).toEqual([]);
    expect(bed.events.filter((e) => e.type === 'lock.lost')).toEqual([
      expect.objectContaining({ key: 'p1', holder: other }),
    ]);
    // Released or erased after that: nothing to do, nothing written.
    const json = JSON.stringify(bed.store.peek('PlayerData/p1'));
    await bed.clock.run(profile.release());
    expect(JSON.stringify(bed.store.peek('PlayerData/p1'))).toBe(json);
    expect(ended).toEqual([]); // no beforeRelease for a session already over
  });
});

describe('load.started', () => {
  it("says whether the load is a player's session (attached) or a manual load", async () => {
    const { bed, driver } = server();
    const host = new MemoryHost('A');
    driver.attach(host);
    host.join('player');
    await bed.clock.advance(0);
    await bed.clock.run(driver.load('manual'));
    expect(
      bed.events.flatMap((e) => (e.type === 'load.started' ? [[e.key, e.session]] : [])),
    ).toEqual([
      ['player', true],
      ['manual', false],
    ]);
  });
});

describe('a driver closed', () => {
  it('before the load: Data.Closed naming the driver, nothing read', async () => {
    const { bed, driver } = server();
    await bed.clock.run(driver.close());
    const error = await bed.clock.run(driver.load('p1').catch((caught: DataDriverError) => caught));
    expect(error).toBeInstanceOf(DataDriverError);
    expect((error as DataDriverError).message).toBe('Data.Closed: PlayerData is closed');
    expect(bed.store.calls).toEqual({ reads: 0, compareAndSets: 0 });
  });

  it('while the load lands: Data.Closed, and the lock it took is released as shutdown', async () => {
    const { bed, driver, store, ended } = server();
    const take = store.faults.inject({ kind: 'stall', operation: 'update' });
    const load = driver.load('p1').catch((caught: DataDriverError) => caught);
    await bed.clock.advance(100);
    const closing = driver.close();
    take.release();
    const error = await bed.clock.run(load);
    await bed.clock.run(closing);
    expect((error as DataDriverError).code).toBe(ErrorCode.Closed);
    expect((error as DataDriverError).message).toBe(
      'Data.Closed: PlayerData closed while p1 was loading',
    );
    expect(ended).toEqual([['p1', 'shutdown']]);
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });
});

describe('an aborted load', () => {
  it('aborted before the call: no store call, even later', async () => {
    const { bed, driver } = server();
    await bed.clock.run(driver.load('p1', { signal: AbortSignal.abort() }).catch(() => undefined));
    await bed.clock.advance(5_000);
    expect(bed.store.calls).toEqual({ reads: 0, compareAndSets: 0 });
    expect(stored(bed.store, 'p1')).toBeUndefined();
  });

  it('whose take lands after the abort: released as aborted', async () => {
    const { bed, driver, store, ended } = server();
    const take = store.faults.inject({ kind: 'stall', operation: 'update' });
    const controller = new AbortController();
    const load = driver.load('p1', { signal: controller.signal }).catch(() => undefined);
    bed.clock.schedule(500, () => controller.abort());
    await bed.clock.run(load);
    take.release();
    await bed.clock.advance(1_000);
    expect(ended).toEqual([['p1', 'aborted']]);
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });
});

describe('a release request that came while the load was in flight', () => {
  it('whose kick throws in the host as the load settles: the load fails with load.failed, as any failure of its landing', async () => {
    const { clock, bus, server } = faultyFleet();
    const a = server('A');
    /** A host whose first kick throws, as a game's own kick code may. */
    class ThrowingHost extends MemoryHost {
      thrown = 0;
      override kick(player: MemoryPlayer, message: string): void {
        if (this.thrown === 0) {
          this.thrown += 1;
          throw new Error('the host could not kick');
        }
        super.kick(player, message);
      }
    }
    const host = new ThrowingHost('A');
    a.driver.attach(host);
    const take = a.connection.faults.inject({ kind: 'stall', operation: 'update' });
    host.join('p1');
    await clock.advance(100);
    // Anyone's request without a lock token kicks a live player: it waits for the load.
    await bus.publish(topicOf('A'), { T: 'Q', D: 'PlayerData', K: 'p1', R: 'X1' });
    await clock.advance(100);
    take.release();
    await clock.advance(1_000);
    expect(host.thrown).toBe(1);
    const failed = a.events.filter((e) => e.type === 'load.failed');
    expect(failed).toEqual([
      expect.objectContaining({
        key: 'p1',
        error: expect.objectContaining({
          code: ErrorCode.BackendFailed,
          message: 'Data.BackendFailed: load of p1 failed: the host could not kick',
        }),
      }),
    ]);
    expect(a.events.filter((e) => e.type === 'load.loaded')).toEqual([]);
  });
});
