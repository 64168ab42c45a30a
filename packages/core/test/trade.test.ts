import { describe, expect, it } from 'vitest';
import { ErrorCode, type Store } from '../src/index.js';
import type { MemoryStore } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

function journals(store: MemoryStore) {
  return store
    .keys()
    .filter((key) => key.startsWith('PlayerData#trade/'))
    .map((key) => store.peek(key));
}

/** B, with handoff off, takes a dead server's lock by age (25 s) within one load. */
const WAITS_OUT_A_DEAD_LOCK = {
  lockTtlSeconds: 20,
  lockSkewSeconds: 5,
  autosaveSeconds: 10,
  lockWaitSeconds: 60,
} as const;

describe('trades', () => {
  it('commits: both profiles change, in memory and in the store, markers cleared', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(a.load('bob'));
    alice.data.coins = 10;
    const aliceData = alice.data;
    await bed.clock.run(
      a.trade(alice, bob, (x, y) => {
        x.coins -= 4;
        y.coins += 4;
      }),
    );
    expect(alice.data).toEqual({ coins: 6 });
    expect(aliceData).toBe(alice.data); // same object: references the game holds stay current
    expect(bob.data).toEqual({ coins: 4 });
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')?.data).toEqual({ coins: 6 });
    expect(stored(bed.store, 'bob')?.data).toEqual({ coins: 4 });
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(stored(bed.store, 'bob')?.meta.trade).toBeUndefined();
    // Both markers are cleared, so the journal (which holds player data) is gone too.
    expect(journals(bed.store)).toEqual([]);
    expect(bed.events.find((e) => e.type === 'trade.committed')).toMatchObject({
      keys: ['alice', 'bob'],
    });
  });

  it("aborts when a participant's marker cannot be written: neither changes", async () => {
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/bob' });
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins += 1;
      y.coins += 1;
    });
    await expect(bed.clock.run(trade)).rejects.toMatchObject({ code: ErrorCode.TradeFailed });
    await bed.clock.advance(0);
    expect(alice.data).toEqual({ coins: 0 });
    expect(bob.data).toEqual({ coins: 0 });
    expect(stored(bed.store, 'alice')).toMatchObject({ data: { coins: 0 } });
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(journals(bed.store)).toEqual([]);
    expect(bed.events.find((e) => e.type === 'trade.aborted')).toBeDefined();
  });

  it('a throwing trade function changes nothing and writes nothing', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(a.load('bob'));
    const trade = a.trade(alice, bob, () => {
      throw new Error('not enough coins');
    });
    await expect(bed.clock.run(trade)).rejects.toMatchObject({ code: ErrorCode.TradeFailed });
    expect(journals(bed.store)).toEqual([]);
  });

  it('a crash after commit, before settle: the next load applies the trade from the journal', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    await bed.clock.run(alice.save());
    // A dies right after the commit write: its settle saves never land.
    let commits = 0;
    const original = a.store.update.bind(a.store);
    a.store.update = async (key, transform, options) => {
      const result = await original(key, transform, options);
      if (key.includes('#trade/') && result?.record.state === 'committed') {
        commits += 1;
        a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      }
      return result;
    };
    void a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    await bed.clock.advance(0);
    expect(commits).toBe(1);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    // Handoff is off, so B waits the lock out by age (25 s).
    const aliceOnB = await bed.clock.run(b.load('alice'));
    const bobOnB = await bed.clock.run(b.load('bob'));
    expect(aliceOnB.data).toEqual({ coins: 0 });
    expect(bobOnB.data).toEqual({ coins: 10 });
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(bed.log.lines.filter((l) => l.message.startsWith('recovered trade'))).toHaveLength(2);
    expect(recoveries(bed)).toEqual([
      ['alice', 'committed'],
      ['bob', 'committed'],
    ]);
  });

  it('a crash between prepare and commit: the next load aborts the trade', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    await bed.clock.run(alice.save());
    const original = a.store.update.bind(a.store);
    a.store.update = async (key, transform, options) => {
      const result = await original(key, transform, options);
      if (
        key === 'PlayerData/bob' &&
        (result?.record as { meta?: { trade?: unknown } })?.meta?.trade
      ) {
        a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      }
      return result;
    };
    void a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    await bed.clock.advance(0);
    const aliceOnB = await bed.clock.run(b.load('alice'));
    const bobOnB = await bed.clock.run(b.load('bob'));
    expect(aliceOnB.data).toEqual({ coins: 10 });
    expect(bobOnB.data).toEqual({ coins: 0 });
    expect(recoveries(bed)).toEqual([
      ['alice', 'aborted'],
      ['bob', 'aborted'],
    ]);
    // The recovering server aborted it; once neither record carries the marker, the journal
    // is deleted.
    await bed.clock.advance(0);
    expect(journals(bed.store)).toEqual([]);
  });

  it('an aborted trade keeps an earlier committed trade whose settle save failed', async () => {
    // Found by the cluster simulator (no-rollback, trade-atomicity): the marker of trade Y
    // used to keep the stored data, which still lacked trade X, and replace X's marker.
    const bed = testBed();
    const a = bed.server('A');
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    await bed.clock.run(alice.save());
    // Trade X commits; alice's settle save (her second write in it) fails, so her record keeps
    // the data before X and X's marker, and X's journal holds her side of it.
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/alice', skip: 1 });
    await bed.clock.run(
      a.driver.trade(alice, bob, (x, y) => {
        x.coins -= 5;
        y.coins += 5;
      }),
    );
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')).toMatchObject({ data: { coins: 10 } });
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    // Trade Y writes its markers, then A dies before its decision lands: Y is aborted.
    const decision = a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
      skip: 1,
    });
    void a.driver
      .trade(alice, bob, (x, y) => {
        x.coins -= 1;
        y.coins += 1;
      })
      .catch(() => undefined);
    await bed.clock.advance(0);
    expect(decision.hits).toBe(1);
    a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    // Handoff is off, so B waits A's locks out by age, then aborts Y from its journal.
    const aliceOnB = await bed.clock.run(b.load('alice'));
    const bobOnB = await bed.clock.run(b.load('bob'));
    expect(aliceOnB.data).toEqual({ coins: 5 });
    expect(bobOnB.data).toEqual({ coins: 5 });
  });

  it("a settled journal is deleted once a leaving participant's release clears its marker", async () => {
    // Found by the cluster simulator (journals-cleared): a participant leaving during the
    // trade was never saved by the settle, so the journal kept its player data for good.
    const bed = testBed();
    const a = bed.driver('A');
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(a.load('bob'));
    alice.data.coins = 10;
    const trade = a.trade(alice, bob, (x, y) => {
      x.coins -= 4;
      y.coins += 4;
    });
    const leave = bob.release(); // bob leaves mid-trade: his release waits for the decision
    await bed.clock.run(trade);
    await bed.clock.run(leave);
    await bed.clock.advance(0);
    expect(stored(bed.store, 'bob')).toMatchObject({ data: { coins: 4 } });
    expect(stored(bed.store, 'bob')?.meta.lock).toBeUndefined();
    expect(journals(bed.store)).toEqual([]);
  });

  it("a settled journal is deleted once a participant's failed settle save is retried", async () => {
    const bed = testBed();
    const a = bed.server('A', { autosaveSeconds: 10 });
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    // Alice's second write in the trade (her settle save) fails.
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/alice', skip: 1 });
    await bed.clock.run(
      a.driver.trade(alice, bob, (_x, y) => {
        y.coins += 1;
      }),
    );
    await bed.clock.advance(0);
    expect(journals(bed.store)).toHaveLength(1);
    await bed.clock.advance(10_000); // alice's autosave lands and clears her marker
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(journals(bed.store)).toEqual([]);
  });

  it('a failed deletion of a settled journal is retried until it lands', async () => {
    // Found by the cluster simulator (journals-cleared): a deletion that met a passing store
    // failure was never retried, and the journal kept both players' data.
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    // The journal's third write (after prepare and commit) is its deletion: it fails 6 times.
    a.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
      skip: 2,
      times: 6,
    });
    await bed.clock.run(
      a.driver.trade(alice, bob, (_x, y) => {
        y.coins += 1;
      }),
    );
    await bed.clock.advance(60_000); // retries 2, 4, 8, 16 and 30 s apart: five more failures
    expect(journals(bed.store)).toHaveLength(1);
    await bed.clock.advance(30_000);
    expect(journals(bed.store)).toEqual([]);
    expect(bed.log.warnings()).toHaveLength(1);
  });

  it('refuses profiles of another driver, the same profile twice, and inactive profiles', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const other = bed.driver('B');
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(other.load('bob'));
    await expect(a.trade(alice, bob, () => undefined)).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
    await expect(a.trade(alice, alice, () => undefined)).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
  });
});

/** A's trade of alice and bob committed, then A died before its settle saves landed. */
async function committedThenCrashed() {
  const bed = testBed();
  const a = bed.server('A');
  const alice = await bed.clock.run(a.driver.load('alice'));
  const bob = await bed.clock.run(a.driver.load('bob'));
  const original = a.store.update.bind(a.store);
  a.store.update = async (key, transform, options) => {
    const result = await original(key, transform, options);
    if (key.includes('#trade/') && result?.record.state === 'committed') {
      a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    }
    return result;
  };
  void a.driver.trade(alice, bob, (x, y) => {
    x.coins = 3;
    y.coins = 7;
  });
  await bed.clock.advance(0);
  expect(journals(bed.store)).toMatchObject([{ state: 'committed' }]);
  return { bed, b: bed.driver('B', WAITS_OUT_A_DEAD_LOCK) };
}

describe('journals a recovery settled', () => {
  it('keeps only the entries of participants still marked, and is deleted once none is', async () => {
    const { bed, b } = await committedThenCrashed();
    const aliceOnB = await bed.clock.run(b.load('alice'));
    expect(aliceOnB.data).toEqual({ coins: 3 });
    await bed.clock.advance(0);
    // Bob's record still carries the marker: the journal keeps his entry, and only his.
    expect(journals(bed.store)).toMatchObject([
      { state: 'committed', entries: { bob: { coins: 7 } } },
    ]);
    expect(Object.keys((journals(bed.store)[0] as { entries: object }).entries)).toEqual(['bob']);
    const bobOnB = await bed.clock.run(b.load('bob'));
    expect(bobOnB.data).toEqual({ coins: 7 });
    await bed.clock.advance(0);
    expect(journals(bed.store)).toEqual([]);
  });

  it('close() resolves only after the journal clean-up its recovering loads started: nothing is written after it', async () => {
    const { bed } = await committedThenCrashed();
    const b = bed.server('B', WAITS_OUT_A_DEAD_LOCK);
    expect((await bed.clock.run(b.driver.load('alice'))).data).toEqual({ coins: 3 });
    // Every call from here takes 500 ms: bob's recovery leaves its clean-up in flight.
    b.store.faults.inject({ kind: 'latency', ms: 500, times: Number.POSITIVE_INFINITY });
    expect((await bed.clock.run(b.driver.load('bob'))).data).toEqual({ coins: 7 });
    let closed = false;
    const late: string[] = [];
    const write = b.store.update.bind(b.store);
    b.store.update = async (key, transform, options) => {
      const result = await write(key, transform, options);
      if (closed) late.push(key);
      return result;
    };
    await bed.clock.run(b.driver.close({ deadlineSeconds: 10 }));
    closed = true;
    await bed.clock.advance(60_000);
    expect(late).toEqual([]);
    expect(journals(bed.store)).toEqual([]);
  });

  it("erase leaves no journal holding the erased player's data", async () => {
    const { bed, b } = await committedThenCrashed();
    await bed.clock.run(b.erase('alice'));
    await bed.clock.advance(0);
    expect(bed.store.peek('PlayerData/alice')).toBeUndefined();
    expect(JSON.stringify(journals(bed.store))).not.toContain('alice');
    const bobOnB = await bed.clock.run(b.load('bob'));
    expect(bobOnB.data).toEqual({ coins: 7 }); // bob's side of the trade is kept
  });

  it('erase, through a store that scans, deletes a settled journal naming the key that no record marks', async () => {
    const bed = testBed();
    const journal = {
      kind: 'datadriver.trade',
      id: 't9',
      state: 'committed',
      entries: { alice: { coins: 5 }, bob: { coins: 1 } },
      time: 0,
    };
    bed.store.put('PlayerData#trade/t9', journal);
    bed.store.put('PlayerData#trade/t8', {
      ...journal,
      id: 't8',
      entries: { carol: { coins: 2 } },
    });
    const scanning: Store = {
      specificationVersion: 'v2',
      update: (key, transform, options) => bed.store.update(key, transform, options),
      get: (key) => bed.store.get(key),
      async *scan(prefix) {
        for (const key of bed.store.keys()) if (key.startsWith(prefix)) yield key;
      },
    };
    const driver = bed.driver('A', { store: scanning });
    await bed.clock.run(driver.erase('alice'));
    expect(bed.store.peek('PlayerData#trade/t9')).toBeUndefined();
    expect(bed.store.peek('PlayerData#trade/t8')).toMatchObject({
      entries: { carol: { coins: 2 } },
    });
  });
});

describe('a trade whose decision cannot be written', () => {
  it('warns on the first failure, and stops retrying once the driver has closed, leaving the markers', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    let journalWrites = 0;
    const original = a.store.update.bind(a.store);
    a.store.update = (key, transform, options) => {
      if (key.includes('#trade/')) journalWrites += 1;
      return original(key, transform, options);
    };
    // The prepare lands; every later journal write (the decision) fails.
    a.store.faults.inject({
      kind: 'fail',
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
      skip: 1,
      times: Number.POSITIVE_INFINITY,
    });
    const trading = a.driver
      .trade(alice, bob, (x) => {
        x.coins = 9;
      })
      .catch((e: unknown) => e);
    await bed.clock.advance(10_000);
    const warnings = bed.log.warnings().filter((line) => line.includes('decision of trade'));
    expect(warnings).toEqual([expect.stringContaining('could not write the decision of trade')]);
    await bed.clock.run(a.driver.close());
    const afterClose = journalWrites;
    await bed.clock.advance(60_000);
    expect(journalWrites - afterClose).toBeLessThanOrEqual(1); // the retry in flight, no more
    await bed.clock.advance(60_000);
    expect(journalWrites - afterClose).toBeLessThanOrEqual(1);
    expect(await trading).toMatchObject({
      message: expect.stringContaining('closed before the decision'),
    });
    // Nothing cleared the markers over data the journal might have committed.
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    expect(stored(bed.store, 'bob')?.meta.trade).toBeDefined();
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const aliceOnB = await bed.clock.run(b.load('alice'));
    expect(aliceOnB.data).toEqual({ coins: 0 }); // the prepared trade is aborted by the load
  });

  /**
   * Alice gives bob coins on A while every matching journal write meets `fault`; A closes 10 s
   * in. Resolves with what the trade rejected with, and the trade events it reported.
   */
  async function tradeClosedDuring(fault: { kind: 'fail' | 'lose-response'; skip?: number }) {
    const bed = testBed();
    const a = bed.server('A');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    a.store.faults.inject({
      ...fault,
      operation: 'update',
      matches: (key) => key.includes('#trade/'),
      times: Number.POSITIVE_INFINITY,
    });
    const trading = a.driver
      .trade(alice, bob, (x, y) => {
        x.coins = 9;
        y.coins = 1;
      })
      .catch((e: unknown) => e);
    await bed.clock.advance(10_000);
    await bed.clock.run(a.driver.close());
    await bed.clock.advance(60_000); // the retry's sleep ends, and it sees the driver closed
    const rejection = await trading;
    const events = bed.events.filter((event) => event.type.startsWith('trade.'));
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const next = async (key: string) => (await bed.clock.run(b.load(key))).data;
    return { rejection, events, next };
  }

  it("reports a trade undecided, never aborted, when the driver closes while its commit's response is lost: the commit may have landed", async () => {
    // The prepare lands; every later journal write (the decision) lands but loses its response.
    const { rejection, events, next } = await tradeClosedDuring({ kind: 'lose-response', skip: 1 });
    expect(rejection).toMatchObject({ code: ErrorCode.Closed, details: { decision: 'committed' } });
    expect(events).toEqual([
      expect.objectContaining({ type: 'trade.undecided', keys: ['alice', 'bob'] }),
    ]);
    // The commit did land: the next loads apply it.
    expect(await next('alice')).toEqual({ coins: 9 });
    expect(await next('bob')).toEqual({ coins: 1 });
  });

  it('reports a trade aborted when the driver closes while its prepare failed and its abort cannot be written: nothing can commit it', async () => {
    // Every journal write fails: the prepare, then each try of the abort.
    const { rejection, events, next } = await tradeClosedDuring({ kind: 'fail' });
    expect(rejection).toMatchObject({ code: ErrorCode.Closed, details: { decision: 'aborted' } });
    expect(events).toEqual([
      expect.objectContaining({ type: 'trade.aborted', keys: ['alice', 'bob'] }),
    ]);
    expect(await next('alice')).toEqual({ coins: 0 });
    expect(await next('bob')).toEqual({ coins: 0 });
  });
});

/** The `trade.recovered` events so far, as [key, outcome]. */
function recoveries(bed: ReturnType<typeof testBed>): Array<[string, string]> {
  return bed.events.flatMap((e) =>
    e.type === 'trade.recovered' ? [[e.key, e.outcome] as [string, string]] : [],
  );
}
