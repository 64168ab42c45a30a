import { describe, expect, it } from 'vitest';
import { replyMessage } from '../src/handoff/wire.js';
import { DataDriver, DataDriverError, ErrorCode, Handoff } from '../src/index.js';
import { topicOf, toStoreRecord } from '../src/rules.js';
import {
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { stored, testBed } from './helpers.js';

describe('DataDriver: load, save, release', () => {
  it("a new key loads the defaults under this server's lock", async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const profile = await bed.clock.run(a.load('p1'));
    expect(profile.data).toEqual({ coins: 0 });
    expect(profile.active).toBe(true);
    const record = stored(bed.store, 'p1');
    expect(record?.meta.lock).toEqual({
      jobId: 'A',
      token: profile.lockToken,
      time: bed.clock.now(),
      presence: false,
    });
  });

  it('saves under its own token and releases with releasedToken', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const profile = await bed.clock.run(a.load('p1'));
    profile.data.coins = 7;
    await bed.clock.run(profile.save());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 7 });
    profile.data.coins = 8;
    await bed.clock.run(profile.release());
    expect(profile.active).toBe(false);
    expect(stored(bed.store, 'p1')).toEqual({
      data: { coins: 8 },
      meta: { version: 3, releasedToken: profile.lockToken },
    });
    await expect(profile.save()).rejects.toMatchObject({ code: ErrorCode.Inactive });
  });

  it("gives each new key its own copy of the defaults: a player's change to a nested default reaches no other player", async () => {
    const bed = testBed();
    type Bag = { coins: number; items: string[]; stats: { wins: number } };
    const defaults: Bag = { coins: 0, items: [], stats: { wins: 0 } };
    const a = bed.driver('A', { defaults: defaults as unknown as { coins: number } });
    const alice = (await bed.clock.run(a.load('alice'))).data as unknown as Bag;
    alice.items.push('sword');
    alice.stats.wins = 3;
    const bob = (await bed.clock.run(a.load('bob'))).data as unknown as Bag;
    expect(bob).toEqual({ coins: 0, items: [], stats: { wins: 0 } });
    expect(defaults).toEqual({ coins: 0, items: [], stats: { wins: 0 } });
    expect(stored(bed.store, 'bob')?.data).toEqual({ coins: 0, items: [], stats: { wins: 0 } });
  });

  it('fills keys missing from older records with the defaults', async () => {
    const bed = testBed();
    bed.store.put('PlayerData/p1', { data: { coins: 3 }, meta: { version: 1 } });
    const a = bed.driver('A', { defaults: { coins: 0, gems: 5 } as { coins: number } });
    const profile = await bed.clock.run(a.load('p1'));
    expect(profile.data).toEqual({ coins: 3, gems: 5 });
  });

  it('refuses a value that is not a DataDriver record, and leaves it as it was', async () => {
    const bed = testBed();
    bed.store.put('PlayerData/p1', { coins: 3 });
    const a = bed.driver('A');
    await expect(bed.clock.run(a.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.InvalidRecord,
    });
    expect(bed.store.peek('PlayerData/p1')).toEqual({ coins: 3 });
  });

  it('a save that finds the lock taken deactivates the profile with Data.LockLost', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const profile = await bed.clock.run(a.load('p1'));
    const record = stored(bed.store, 'p1')!;
    const lock = { jobId: 'B', token: 'x', time: 0, presence: false };
    bed.store.put('PlayerData/p1', toStoreRecord({ ...record, meta: { ...record.meta, lock } }));
    profile.data.coins = 50;
    await expect(bed.clock.run(profile.save())).rejects.toMatchObject({ code: ErrorCode.LockLost });
    expect(profile.active).toBe(false);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 0 });
    expect(bed.log.warnings()).toContain(
      'lost the lock of p1 to server B; the profile is deactivated.',
    );
  });

  it('a load whose response was lost retakes its own lock on the retry', async () => {
    const bed = testBed();
    const { driver, store } = bed.server('A');
    store.faults.inject({ kind: 'lose-response', operation: 'update' });
    const started = bed.clock.now();
    const profile = await bed.clock.run(driver.load('p1'));
    expect(bed.clock.now() - started).toBe(500); // one park, then the retry finds its own lock
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    expect(stored(bed.store, 'p1')?.meta.version).toBe(2); // the retry rewrote its own lock
  });
});

describe("DataDriver: waiting for another server's lock (handoff off)", () => {
  it('retries at 0.5, 1.5, 3.5 s then every 2 s, and fails closed at exactly lockWaitSeconds', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const b = bed.server('B');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 5;
    await bed.clock.run(held.save());
    const before = stored(bed.store, 'p1');
    const started = bed.clock.now();
    const attempts: number[] = [];
    const update = b.store.update.bind(b.store);
    b.store.update = (key, transform, options) => {
      attempts.push(bed.clock.now() - started);
      return update(key, transform, options);
    };
    const failure = b.driver.load('p1').catch((error: unknown) => error);
    const error = await bed.clock.run(failure);
    expect(DataDriverError.is(error, ErrorCode.Locked)).toBe(true);
    expect(String((error as Error).message)).toContain('profile is locked by another server');
    expect((error as DataDriverError).details.holder).toMatchObject({
      jobId: 'A',
      token: held.lockToken,
      presence: false,
    });
    expect(bed.clock.now() - started).toBe(15_000);
    // Parks of 0.5, 1 and 2 s, then 2 s apart; the last attempt is at the 15 s deadline.
    expect(attempts).toEqual([0, 500, 1_500, 3_500, 5_500, 7_500, 9_500, 11_500, 13_500, 15_000]);
    expect(stored(bed.store, 'p1')).toEqual(before);
    const failed = bed.events.find((event) => event.type === 'load.failed');
    expect(failed).toMatchObject({ key: 'p1', waitedMs: 15_000 });
  });

  it("loads at the first retry after the holder releases, with the holder's latest data", async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const b = bed.driver('B');
    const held = await bed.clock.run(a.load('p1'));
    const started = bed.clock.now();
    const loading = b.load('p1');
    await bed.clock.advance(1200);
    held.data.coins = 42;
    await held.release();
    const profile = await bed.clock.run(loading);
    expect(bed.clock.now() - started).toBe(1500); // attempts at 0, 0.5, 1.5 s
    expect(profile.data).toEqual({ coins: 42 });
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('B');
  });

  it('takes a lock by age once it is older than lockTtlSeconds + lockSkewSeconds, and warns', async () => {
    const bed = testBed();
    const times = { lockTtlSeconds: 20, lockSkewSeconds: 5, autosaveSeconds: 10 };
    const a = bed.server('A', times);
    const b = bed.driver('B', { ...times, lockWaitSeconds: 60 });
    const held = await bed.clock.run(a.driver.load('p1'));
    const lockTime = bed.clock.now();
    // A stalls: its store connection hangs, so its autosaves never land.
    a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    // Attempts at 0, 0.5, 1.5, 3.5 s, then every 2 s: the first after 25 s of silence is 25.5 s.
    expect(bed.clock.now() - started).toBe(25_500);
    expect(bed.clock.now() - lockTime).toBe(25_500);
    expect(profile.active).toBe(true);
    expect(held.active).toBe(true); // A never learns: it is stalled
    expect(
      bed.log.warnings().some((line) => line.startsWith('took the stale lock of p1 from server A')),
    ).toBe(true);
  });
});

describe('DataDriver: configuration', () => {
  const store = new MemoryStore();
  const rows: Array<[string, Record<string, unknown>]> = [
    ['empty name', { name: '' }],
    ['name with a slash', { name: 'a/b' }],
    ['negative lockWaitSeconds', { lockWaitSeconds: -1 }],
    ['zero lockTtlSeconds', { lockTtlSeconds: 0 }],
    ['NaN lockSkewSeconds', { lockSkewSeconds: Number.NaN }],
    ['autosave past half the TTL', { autosaveSeconds: 100 }],
    ['defaults not an object', { defaults: 5 }],
    ['a store of another port version', { store: { ...store, specificationVersion: 'v2' } }],
  ];
  it.each(rows)('%s fails at construction with Data.InvalidConfig', (_name, overrides) => {
    expect(
      () => new DataDriver({ name: 'PlayerData', defaults: {}, store, ...overrides } as never),
    ).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
  });

  it('refuses an empty key', async () => {
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: new VirtualClock(),
    });
    await expect(driver.load('')).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
  });
});

describe('DataDriver: attach', () => {
  it('loads on join, releases on leave, kicks when the load fails', async () => {
    const bed = testBed();
    const hostA = new MemoryHost('A');
    const hostB = new MemoryHost('B');
    const a = bed.driver('A');
    const b = bed.driver('B', { lockWaitSeconds: 3 });
    const loaded: string[] = [];
    a.attach(hostA, { onLoad: (profile) => loaded.push(profile.key) });
    b.attach(hostB);
    hostA.join('p1');
    await bed.clock.advance(0);
    expect(loaded).toEqual(['p1']);
    a.profile('p1')!.data.coins = 9;
    hostB.join('p1'); // handoff off: B waits for the lock and gives up
    await bed.clock.advance(3000);
    expect(hostB.kicks).toEqual([
      {
        player: 'p1',
        message: 'Your data is still in use on another server. Please rejoin in a moment.',
      },
    ]);
    hostA.leave('p1');
    await bed.clock.advance(0);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 9 });
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });
});

describe('DataDriver: handoff replies', () => {
  it('reports a reply when it arrives, even when no load waits for it any more', async () => {
    const bed = testBed();
    const messenger = new MemoryMessenger();
    const handoff = new Handoff({
      jobId: 'A',
      messenger,
      presence: new MemoryPresence(bed.clock),
      scheduler: bed.clock,
    });
    bed.driver('A', { handoff });
    await messenger.publish(topicOf('A'), replyMessage('PlayerData', 'p1'));
    await bed.clock.advance(0);
    expect(bed.events.filter((e) => e.type === 'handoff.reply.received')).toMatchObject([
      { key: 'p1', jobId: 'A' },
    ]);
    await handoff.destroy();
  });

  it('a waiting load cancelled by its player leaving reports no reply it never got', async () => {
    const bed = testBed();
    const hostB = new MemoryHost('B');
    const a = bed.driver('A');
    bed.driver('B').attach(hostB);
    await bed.clock.run(a.load('p1'));
    hostB.join('p1'); // waits for A's lock
    await bed.clock.advance(1000);
    hostB.leave('p1'); // wakes the waiting load, which ends as cancelled
    await bed.clock.advance(0);
    expect(bed.events.find((e) => e.type === 'load.failed')).toMatchObject({
      key: 'p1',
      error: { code: ErrorCode.Closed },
    });
    expect(bed.events.some((e) => e.type === 'handoff.reply.received')).toBe(false);
    expect(hostB.kicks).toEqual([]);
  });
});
