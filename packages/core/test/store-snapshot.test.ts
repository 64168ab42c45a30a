/**
 * Issue 21: the version travels through the store port. A session hands the store the snapshot
 * its last write left, so a holder's save and release are one compare-and-set with no read; a
 * moved version is answered with the current record in the same reply; a write that rejects
 * drops the snapshot. Counted on the memory store, which counts the calls a remote store makes.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode } from '../src/index.js';
import type { Store, StoreSnapshot } from '../src/ports.js';
import { MemoryStore, VirtualClock } from '../src/testing.js';
import { callsSince, stored, testBed } from './helpers.js';

const KEY = 'PlayerData/p1';

function counting() {
  const bed = testBed();
  const server = bed.server('A');
  return { bed, server, since: callsSince(bed.store) };
}

describe('store calls of a holder', () => {
  it('a load is one read and one compare-and-set; a save and the release one compare-and-set each, no read', async () => {
    const { bed, server, since } = counting();
    const profile = await bed.clock.run(server.driver.load('p1'));
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
    profile.data.coins = 5;
    await bed.clock.run(profile.save());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 5 });
    profile.data.coins = 6;
    await bed.clock.run(profile.save());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    await bed.clock.run(profile.release());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    const record = stored(bed.store, 'p1');
    expect(record?.data).toEqual({ coins: 6 });
    expect(record?.meta.lock).toBeUndefined();
    expect(record?.meta.version).toBe(4);
  });

  it('a save that finds the version moved writes over the record its failed compare-and-set carried back, with no read', async () => {
    const { bed, server, since } = counting();
    const profile = await bed.clock.run(server.driver.load('p1'));
    // Another writer moves the version, leaving the lock in place (a tool touching the record).
    await bed.store.update(KEY, (current) => ({
      ...current,
      meta: { ...(current?.meta as object), version: 40 },
    }));
    since();
    profile.data.coins = 7;
    await bed.clock.run(profile.save());
    expect(since()).toEqual({ reads: 0, compareAndSets: 2 });
    // The transform ran again on the current record: the version follows the other write.
    expect(stored(bed.store, 'p1')?.meta.version).toBe(41);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 7 });
    await bed.clock.run(profile.release());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
  });

  it('a save that finds its lock taken is lost after one compare-and-set and its reply, no read', async () => {
    const { bed, server, since } = counting();
    const profile = await bed.clock.run(server.driver.load('p1'));
    const thief = { jobId: 'B', token: 'stolen', time: bed.clock.now(), presence: false };
    bed.store.put(KEY, { data: { coins: 0 }, meta: { version: 9, lock: thief } });
    since();
    const failure = await bed.clock.run(profile.save().catch((error: unknown) => error));
    expect(failure).toMatchObject({ code: ErrorCode.LockLost });
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    expect(stored(bed.store, 'p1')?.meta.lock).toEqual(thief);
  });

  it('a write that rejects drops the snapshot: the next save reads first, then lands', async () => {
    const { bed, server, since } = counting();
    const profile = await bed.clock.run(server.driver.load('p1'));
    profile.data.coins = 1;
    // The save commits but its response is lost: the session cannot know its version.
    server.store.faults.inject({ kind: 'lose-response', times: 1 });
    await bed.clock.run(profile.save().catch(() => undefined));
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1 });
    since();
    profile.data.coins = 2;
    await bed.clock.run(profile.save());
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 2 });
    await bed.clock.run(profile.release());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
  });

  it('a release whose version moved to its own released record writes nothing, told by the failed compare-and-set', async () => {
    const { bed, server, since } = counting();
    const profile = await bed.clock.run(server.driver.load('p1'));
    const token = stored(bed.store, 'p1')?.meta.lock?.token;
    // The release landed by another path (a lost response's retry on another connection).
    const record = stored(bed.store, 'p1');
    bed.store.put(KEY, {
      data: record?.data ?? {},
      meta: { version: 2, releasedToken: token ?? '' },
    });
    since();
    await bed.clock.run(profile.release());
    // The snapshot said "locked by me": the compare-and-set found it moved and carried back
    // the released record, on which the release writes nothing.
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    expect(stored(bed.store, 'p1')?.meta).toEqual({ version: 2, releasedToken: token });
  });
});

describe('a record just written', () => {
  it('is not parsed again: no write walks the data of a snapshot the store resolved with', async () => {
    const inner = new MemoryStore();
    let dataReads = 0;
    /** The snapshot with a record that counts reads of its data (what `parseRecord` walks). */
    const watched = (snapshot: StoreSnapshot | undefined) =>
      snapshot && {
        version: snapshot.version,
        record: new Proxy(snapshot.record, {
          get(target, property, receiver) {
            if (property === 'data') dataReads += 1;
            return Reflect.get(target, property, receiver);
          },
        }),
      };
    const store: Store = {
      specificationVersion: 'v2',
      update: async (key, transform, options) =>
        watched(await inner.update(key, transform, options)),
      get: (key) => inner.get(key),
    };
    const clock = new VirtualClock();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      scheduler: clock,
    });
    const profile = await clock.run(driver.load('p1'));
    for (const coins of [1, 2]) {
      profile.data.coins = coins;
      await clock.run(profile.save());
    }
    await clock.run(profile.release());
    expect(dataReads).toBe(0);
    expect(inner.peek('PlayerData/p1')).toMatchObject({ data: { coins: 2 } });
    expect(inner.calls).toEqual({ reads: 1, compareAndSets: 4 });
  });
});
