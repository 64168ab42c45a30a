/**
 * What an idle player costs the store, on the virtual clock at the defaults (autosave 30 s,
 * lock TTL 180 s): an autosave with nothing new to store writes nothing until the last
 * committed write is a third of the TTL old (60 s), then refreshes the lock. Writes are the
 * store's compare-and-sets; none of these autosaves reads.
 */
import { describe, expect, it } from 'vitest';
import type { DataDriverEvent } from '../src/index.js';
import { toStoreRecord } from '../src/rules/index.js';
import { sessionOf } from '../src/session/session-of.js';
import { callsSince, stored, testBed } from './helpers.js';
import { messagesBed } from './messages/bed.js';

const HOUR = 3_600_000;

/** The virtual times, from `start`, at which writes landed (`profile.saved`) for `key`. */
function savedAt(events: readonly DataDriverEvent[], times: Map<DataDriverEvent, number>) {
  return (start: number) =>
    events.filter((event) => event.type === 'profile.saved').map((e) => times.get(e)! - start);
}

/** Store calls counted from now (the load's own left out). */
function callsFromNow(store: Parameters<typeof callsSince>[0]) {
  const calls = callsSince(store);
  calls();
  return calls;
}

function timedBed() {
  const bed = testBed();
  const times = new Map<DataDriverEvent, number>();
  const server = (jobId: string, options = {}) => {
    const made = bed.server(jobId, options);
    made.driver.on((event) => void times.set(event, bed.clock.now()));
    return made;
  };
  return { bed, server, saves: savedAt(bed.events, times), times };
}

describe('an idle autosave', () => {
  it('an idle profile for one hour: 60 writes, one lock refresh a minute, no read', async () => {
    const { bed, server, saves } = timedBed();
    const a = server('A');
    await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    const calls = callsFromNow(bed.store);
    await bed.clock.advance(HOUR);
    expect(calls()).toEqual({ reads: 0, compareAndSets: 60 });
    expect(saves(start)).toEqual(Array.from({ length: 60 }, (_, i) => (i + 1) * 60_000));
    expect(stored(bed.store, 'p1')?.meta.lock?.time).toBe(start + HOUR);
  });

  it('an active profile (changed before every autosave) for one hour: 120 writes', async () => {
    const { bed, server } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    const calls = callsFromNow(bed.store);
    for (let tick = 1; tick <= 120; tick += 1) {
      profile.data.coins = tick;
      await bed.clock.advance(30_000);
    }
    expect(calls()).toEqual({ reads: 0, compareAndSets: 120 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 120 });
  });

  it('a profile changed once: one write at the next autosave, then none until the refresh', async () => {
    const { bed, server, saves } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    await bed.clock.advance(5_000);
    profile.data.coins = 9;
    await bed.clock.advance(295_000);
    // The change at 30 s; refreshes 60 s after each write.
    expect(saves(start)).toEqual([30_000, 90_000, 150_000, 210_000, 270_000]);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 9 });
  });

  it('a failed autosave is retried at the next tick with the data unchanged', async () => {
    const { bed, server, saves } = timedBed();
    const a = server('A');
    await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    const calls = callsFromNow(bed.store);
    const fault = a.store.faults.inject({ kind: 'fail', operation: 'update' });
    await bed.clock.advance(150_000);
    expect(fault.hits).toBe(1); // the refresh at 60 s
    // The retry at 90 s reads first (the failed write may have landed), then 60 s to the next.
    expect(saves(start)).toEqual([90_000, 150_000]);
    expect(calls()).toEqual({ reads: 1, compareAndSets: 2 });
    expect(bed.events.filter((e) => e.type === 'profile.save-failed')).toHaveLength(1);
  });

  it("a beforeSave hook's change is compared, so it is written", async () => {
    const { bed, server, saves } = timedBed();
    let start = 0;
    const a = server('A', {
      defaults: { coins: 0, level: 1 },
      beforeSave: (profile: { data: { level: number } }) => {
        if (bed.clock.now() - start >= 90_000) profile.data.level = 2;
      },
    });
    await bed.clock.run(a.driver.load('p1'));
    start = bed.clock.now();
    await bed.clock.advance(300_000);
    expect(saves(start)).toEqual([60_000, 90_000, 150_000, 210_000, 270_000]);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0, level: 2 });
  });

  it('a user id added is a change: written at the next autosave', async () => {
    const { bed, server, saves } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    await bed.clock.advance(70_000);
    profile.addUserId('u1');
    await bed.clock.advance(50_000);
    expect(saves(start)).toEqual([60_000, 90_000]);
    expect(stored(bed.store, 'p1')?.meta.userIds).toEqual(['u1']);
  });

  it('defaults filled in at load are written by the first autosave', async () => {
    const { bed, server, saves } = timedBed();
    bed.store.put('PlayerData/p1', toStoreRecord({ data: { coins: 4 }, meta: { version: 1 } }));
    const a = server('A', { defaults: { coins: 0, level: 1 } });
    await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    await bed.clock.advance(120_000);
    expect(saves(start)).toEqual([30_000, 90_000]);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 4, level: 1 });
  });

  it('a manual save and the release always write', async () => {
    const { bed, server } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    const calls = callsFromNow(bed.store);
    await bed.clock.run(profile.save());
    await bed.clock.run(profile.save());
    await bed.clock.run(profile.release());
    expect(calls()).toEqual({ reads: 0, compareAndSets: 3 });
  });

  it('a manual save that joins a queued autosave writes', async () => {
    const { bed, server } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    await bed.clock.advance(10_000);
    const calls = callsFromNow(bed.store);
    const session = sessionOf(profile)!;
    // Both in one turn: the manual save shares the autosave queued just before it.
    const autosave = session.save('autosave');
    const manual = profile.save();
    await bed.clock.run(Promise.all([autosave, manual]));
    expect(calls()).toEqual({ reads: 0, compareAndSets: 1 });
  });

  it('a lock taken while idle is found at the refresh, 60 s after the last write', async () => {
    const { bed, server, times } = timedBed();
    const a = server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    const start = bed.clock.now();
    await bed.clock.advance(10_000);
    const record = stored(bed.store, 'p1')!;
    const lock = { jobId: 'B', token: 'b', time: bed.clock.now(), presence: false };
    bed.store.put('PlayerData/p1', toStoreRecord({ ...record, meta: { ...record.meta, lock } }));
    await bed.clock.advance(59_999 - 10_000);
    expect(profile.active).toBe(true);
    await bed.clock.advance(1);
    expect(profile.active).toBe(false);
    const lost = bed.events.filter((e) => e.type === 'lock.lost');
    expect(lost).toMatchObject([{ key: 'p1', holder: lock }]);
    expect(times.get(lost[0]!)! - start).toBe(60_000);
  });
});

describe('an autosave with a transfer to deliver', () => {
  it('delivers again a transfer whose delivery failed, though it writes nothing', async () => {
    const m = messagesBed();
    const times = new Map<DataDriverEvent, number>();
    const a = m.server('A');
    a.driver.on((event) => void times.set(event, m.bed.clock.now()));
    const alice = await m.bed.clock.run(a.driver.load('alice'));
    alice.send('bob', { coins: 2 }, { id: 't1' });
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData#inbox/bob' });
    await m.bed.clock.run(alice.save());
    const saved = m.bed.clock.now();
    const calls = callsFromNow(m.bed.store);
    await m.bed.clock.advance(30_000);
    const delivery = m.bed.events.filter((e) => e.type.startsWith('message.deliver'));
    expect(delivery.map((e) => [e.type, times.get(e)! - saved])).toEqual([
      ['message.delivery-failed', 0],
      ['message.delivered', 30_000],
    ]);
    // The autosave at 30 s wrote nothing to alice's record: one write, bob's inbox.
    expect(calls().compareAndSets).toBe(1);
  });
});

describe('an autosave with a message handler', () => {
  it('its pass applies a message sent while idle, and writes once for it', async () => {
    const m = messagesBed();
    const w = m.bed.server('W');
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    const calls = callsFromNow(m.bed.store);
    await m.bed.clock.advance(10_000);
    await m.bed.clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    calls();
    await m.bed.clock.advance(20_000); // the autosave at 30 s: its pass applies g1
    expect(m.ids()).toEqual(['g1']);
    expect(profile.data.coins).toBe(5);
    expect(stored(m.bed.store, 'p1')?.data).toEqual({ coins: 5 });
    // Each pass reads the inbox; the write at 30 s is the one for g1.
    expect(calls().compareAndSets).toBe(2); // the profile, then the inbox's trim
    await m.bed.clock.advance(60_000); // 60 s: nothing new, the refresh comes at 90 s
    expect(calls().compareAndSets).toBe(1);
  });
});
