/**
 * `driver.view(key)`: a profile as last stored, read from any process without a session. It
 * takes no lock, kicks nobody and writes nothing; its data is what a load would see.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, DataDriverError, ErrorCode } from '../src/index.js';
import { MemoryStore, VirtualClock } from '../src/testing.js';
import { callsSince, isJournal, stored, testBed, tradeWithHungCommit } from './helpers.js';

/** The keys `store.get` is called with from now on (a read outside an update). */
function countGets(store: MemoryStore): string[] {
  const keys: string[] = [];
  const get = store.get.bind(store);
  store.get = (key) => {
    keys.push(key);
    return get(key);
  };
  return keys;
}

function codeOf(error: unknown): string | undefined {
  return error instanceof DataDriverError ? error.code : undefined;
}

describe('driver.view(key)', () => {
  it('a profile held elsewhere: the data as last saved (not the unsaved change), its holder, one read and no write, the holder untouched', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 5;
    await bed.clock.run(held.save());
    held.data.coins = 9; // unsaved
    const before = JSON.stringify(stored(bed.store, 'p1'));
    const support = bed.driver('support'); // holds nothing
    const calls = callsSince(bed.store);
    calls();
    const gets = countGets(bed.store);
    const view = await bed.clock.run(support.view('p1'));
    expect(view).toEqual({
      key: 'p1',
      data: { coins: 5 },
      version: stored(bed.store, 'p1')?.meta.version,
      lock: { jobId: 'A', time: stored(bed.store, 'p1')?.meta.lock?.time, presence: false },
    });
    expect(calls()).toEqual({ reads: 0, compareAndSets: 0 });
    expect(gets).toEqual(['PlayerData/p1']);
    expect(JSON.stringify(stored(bed.store, 'p1'))).toBe(before);
    expect(held.active).toBe(true);
    expect(held.data.coins).toBe(9);
    expect(bed.events.filter((event) => event.type === 'profile.kicked')).toEqual([]);
  });

  it('never saved: undefined, and nothing written', async () => {
    const bed = testBed();
    const calls = callsSince(bed.store);
    const gets = countGets(bed.store);
    expect(await bed.clock.run(bed.driver('A').view('nobody'))).toBeUndefined();
    expect(calls()).toEqual({ reads: 0, compareAndSets: 0 });
    expect(gets).toEqual(['PlayerData/nobody']);
    expect(stored(bed.store, 'nobody')).toBeUndefined();
  });

  it('a copy of its own: changing the view changes neither the store nor a later view', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 2;
    await bed.clock.run(profile.release());
    const first = await bed.clock.run(driver.view('p1'));
    (first?.data as { coins: number }).coins = 1_000;
    expect((await bed.clock.run(driver.view('p1')))?.data).toEqual({ coins: 2 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 2 });
  });

  it('an older record: migrated and filled with defaults as a load would, the record left byte for byte', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const old = new DataDriver({
      name: 'PlayerData',
      defaults: { gold: 0 },
      store,
      scheduler: clock,
    });
    const profile = await clock.run(old.load('p1'));
    profile.data.gold = 4;
    await clock.run(profile.release());
    await clock.run(old.close());
    const before = JSON.stringify(store.peek('PlayerData/p1'));
    const newer = new DataDriver<{ coins: number; gems: number }>({
      name: 'PlayerData',
      defaults: { coins: 0, gems: 3 },
      store,
      scheduler: clock,
      migrations: [{ version: 1, migrate: (data) => ({ coins: data.gold as number }) }],
    });
    const view = await clock.run(newer.view('p1'));
    expect(view?.data).toEqual({ coins: 4, gems: 3 });
    expect(JSON.stringify(store.peek('PlayerData/p1'))).toBe(before);
  });

  it('a trade in flight: its data from before the trade and the trade named; once committed (marker still on the record): the traded data', async () => {
    const bed = testBed();
    const server = bed.server('A');
    const { commit, trade } = await tradeWithHungCommit(bed, server);
    await bed.clock.advance(10);
    const marker = stored(bed.store, 'alice')?.meta.trade;
    expect(marker).toBeDefined();
    const support = bed.driver('support');
    const journalBefore = JSON.stringify(
      [...bed.store.keys()].filter(isJournal).map((key) => bed.store.peek(key)),
    );
    const during = await bed.clock.run(support.view('alice'));
    expect(during).toMatchObject({ data: { coins: 10 }, undecidedTrade: marker?.id });
    expect(
      JSON.stringify([...bed.store.keys()].filter(isJournal).map((key) => bed.store.peek(key))),
    ).toBe(journalBefore); // a view never decides a trade
    // The commit lands; the participants' saves after it fail, so their records keep the
    // marker and the old data: the commit lives only in the journal.
    const saves = server.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      matches: (key) => !isJournal(key),
      times: Infinity,
    });
    commit.release();
    await bed.clock.run(trade);
    expect(saves.hits).toBeGreaterThan(0);
    expect(stored(bed.store, 'alice')?.data).toEqual({ coins: 10 });
    expect(stored(bed.store, 'alice')?.meta.trade?.id).toBe(marker?.id);
    const after = await bed.clock.run(support.view('alice'));
    expect(after?.data).toEqual({ coins: 0 });
    expect(after?.undecidedTrade).toBeUndefined();
    expect((await bed.clock.run(support.view('bob')))?.data).toEqual({ coins: 10 });
  });

  it('a value that is not a record: Data.InvalidRecord, left byte for byte', async () => {
    const bed = testBed();
    await bed.store.update('PlayerData/p1', () => ({ hello: 'world' }));
    const before = JSON.stringify(bed.store.peek('PlayerData/p1'));
    const error = await bed.clock.run(bed.driver('A').view('p1')).catch((e: unknown) => e);
    expect(codeOf(error)).toBe(ErrorCode.InvalidRecord);
    expect(JSON.stringify(bed.store.peek('PlayerData/p1'))).toBe(before);
  });

  it('a bad key: Data.InvalidArgument; a closed driver: Data.Closed; neither reads', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const calls = callsSince(bed.store);
    const gets = countGets(bed.store);
    expect(codeOf(await driver.view('').catch((e: unknown) => e))).toBe(ErrorCode.InvalidArgument);
    await bed.clock.run(driver.close());
    expect(codeOf(await driver.view('p1').catch((e: unknown) => e))).toBe(ErrorCode.Closed);
    expect(calls()).toEqual({ reads: 0, compareAndSets: 0 });
    expect(gets).toEqual([]);
  });
});
