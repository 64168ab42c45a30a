import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode, type Store } from '../src/index.js';
import { MAX_RUNS_PER_ATTEMPT } from '../src/load/load-attempt.js';
import type { StoreRecord } from '../src/ports.js';
import { testBed } from './helpers.js';

const KEY = 'PlayerData/p1';

/** A store call counter around the bed's connection of server A. */
function counted(store: Store): { store: Store; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    store: {
      specificationVersion: 'v2',
      update: (key, transform, options) => {
        calls += 1;
        return store.update(key, transform, options);
      },
      get: (key) => {
        calls += 1;
        return store.get(key);
      },
    },
  };
}

function nested(depth: number): StoreRecord {
  let value: StoreRecord = { coins: 1 };
  for (let level = 0; level < depth; level += 1) value = { inner: value };
  return value;
}

/** JSON nested deeper than JSON.stringify can write (its recursion overflows the stack). */
function deepJson(depth: number): string {
  return `${'{"inner":'.repeat(depth)}{"coins":1}${'}'.repeat(depth)}`;
}

const meta = { version: 3 };
const lock = { jobId: 'Z', token: 'z', time: 0, presence: false };

/** Stored values that are not what core writes, each refused at once. */
const HOSTILE: ReadonlyArray<readonly [string, StoreRecord]> = [
  [
    'a marker whose id is an object',
    { data: {}, meta: { ...meta, trade: { id: { a: 1 }, journal: 'j', version: 3 } } },
  ],
  ['a marker that is a string', { data: {}, meta: { ...meta, trade: 'x' } }],
  ['a marker without a version', { data: {}, meta: { ...meta, trade: { id: 't', journal: 'j' } } }],
  ['userIds that are not a list', { data: {}, meta: { ...meta, userIds: 'steam:1' } }],
  ['userIds holding a number', { data: {}, meta: { ...meta, userIds: ['a', 7] } }],
  ['a meta.compatible that is a string', { data: {}, meta: { ...meta, compatible: '1' } }],
  ['a negative meta.compatible', { data: {}, meta: { ...meta, compatible: -1 } }],
  ['no meta.version', { data: {}, meta: {} }],
  ['a fractional meta.version', { data: {}, meta: { version: 1.5 } }],
  ['a negative meta.version', { data: {}, meta: { version: -1 } }],
  ['a meta.version of 2**53', { data: {}, meta: { version: 2 ** 53 } }],
  // Readable, but the lock's write would make it 2**53: refused inside the transform.
  ['a meta.version of 2**53-1', { data: {}, meta: { version: Number.MAX_SAFE_INTEGER } }],
  [
    'a lock without a token',
    { data: {}, meta: { ...meta, lock: { jobId: 'Z', time: 0, presence: false } } },
  ],
  ['a lock with an empty jobId', { data: {}, meta: { ...meta, lock: { ...lock, jobId: '' } } }],
  ['a lock whose time is a string', { data: {}, meta: { ...meta, lock: { ...lock, time: '0' } } }],
  ['a lock whose presence is 1', { data: {}, meta: { ...meta, lock: { ...lock, presence: 1 } } }],
  ['a releasedToken that is a number', { data: {}, meta: { ...meta, releasedToken: 5 } }],
  ['a schema of -1', { data: {}, meta: { ...meta, schema: -1 } }],
  ['a schema that is a string', { data: {}, meta: { ...meta, schema: '2' } }],
  ['data that is a list', { data: [1, 2], meta }],
  ['data nested 65 levels deep', { data: nested(64), meta }],
  ['a record that is a list', [] as unknown as StoreRecord],
];

/** Stored JSON that no JSON.stringify could have written. */
const DEEP: ReadonlyArray<readonly [string, string]> = [
  ['data nested 10,000 levels deep', `{"data":${deepJson(10_000)},"meta":{"version":1}}`],
  ['meta nested 10,000 levels deep', `{"data":{},"meta":{"version":1,"x":${deepJson(10_000)}}}`],
];

describe('records that are not what core expects', () => {
  it.each(DEEP)(
    'refuses a record with %s at once, byte for byte untouched',
    async (_name, json) => {
      const bed = testBed();
      bed.store.putJson(KEY, json);
      const a = bed.driver('A');
      const error = await bed.clock.run(a.load('p1').catch((e: unknown) => e));
      expect(DataDriverError.is(error, ErrorCode.InvalidRecord)).toBe(true);
      expect((error as Error).message).toContain('nested deeper than 64 levels');
      expect(bed.store.peekJson(KEY)).toBe(json);
      expect(bed.clock.now() - Date.UTC(2026, 0, 1)).toBe(0);
    },
  );

  it.each(HOSTILE)(
    'refuses a record with %s at once, writes nothing, and leaves it byte for byte',
    async (_name, value) => {
      const bed = testBed();
      bed.store.put(KEY, value);
      const before = JSON.stringify(bed.store.peek(KEY));
      const keysBefore = bed.store.keys();
      const a = bed.server('A');
      const error = await bed.clock.run(a.driver.load('p1').catch((e: unknown) => e));
      expect(DataDriverError.is(error, ErrorCode.InvalidRecord)).toBe(true);
      expect(JSON.stringify(bed.store.peek(KEY))).toBe(before);
      expect(bed.store.keys()).toEqual(keysBefore); // no journal key was made
      expect(bed.clock.now() - Date.UTC(2026, 0, 1)).toBe(0); // refused at once: no wait
    },
  );

  it('a save whose version would pass Number.MAX_SAFE_INTEGER writes nothing and keeps the profile', async () => {
    const bed = testBed();
    bed.store.put(KEY, { data: { coins: 1 }, meta: { version: Number.MAX_SAFE_INTEGER - 1 } });
    const a = bed.driver('A');
    const profile = await bed.clock.run(a.load('p1'));
    const stored = JSON.stringify(bed.store.peek(KEY));
    expect(bed.store.peek(KEY)).toMatchObject({ meta: { version: Number.MAX_SAFE_INTEGER } });
    profile.data.coins = 2;
    const error = await bed.clock.run(profile.save().catch((e: unknown) => e));
    expect(error).toMatchObject({ code: ErrorCode.InvalidRecord });
    expect((error as Error).message).toContain('a meta.version past Number.MAX_SAFE_INTEGER');
    expect(JSON.stringify(bed.store.peek(KEY))).toBe(stored);
    expect(profile.active).toBe(true);
  });

  it('a store that resolves no record after a load wrote one fails the load with a typed error', async () => {
    const bed = testBed();
    const forgetful: Store = {
      specificationVersion: 'v2',
      update: async (key, transform, options) => {
        await bed.store.update(key, transform, options);
        return undefined;
      },
      get: (key) => bed.store.get(key),
    };
    const driver = bed.driver('A', { store: forgetful });
    const error = await bed.clock.run(driver.load('p1').catch((e: unknown) => e));
    expect(error).toMatchObject({
      code: ErrorCode.BackendFailed,
      message: expect.stringContaining(
        'the store resolved no record after the load of p1 wrote one',
      ),
    });
    expect((error as Error).cause).toBeUndefined(); // no raw Error inside
  });

  it('a marker whose id is an object costs one store call, not a flood', async () => {
    const bed = testBed();
    bed.store.put(KEY, {
      data: { coins: 4 },
      meta: { ...meta, trade: { id: { a: 1 }, journal: 'j', version: 3 } },
    });
    const counter = counted(bed.store);
    const driver = bed.driver('A', { store: counter.store });
    await expect(bed.clock.run(driver.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.InvalidRecord,
    });
    expect(counter.calls()).toBe(1);
    expect(bed.store.keys().filter((key) => key.includes('#trade/'))).toEqual([]);
  });

  it('refuses userIds that are not strings before the lock is written', async () => {
    const bed = testBed();
    bed.store.put(KEY, { data: { coins: 9 }, meta: { version: 1, userIds: 42 } });
    const a = bed.driver('A');
    const error = await bed.clock.run(a.load('p1').catch((e: unknown) => e));
    expect(error).toMatchObject({ code: ErrorCode.InvalidRecord });
    expect((error as Error).message).toContain('meta.userIds');
    expect(bed.store.peek(KEY)).toEqual({ data: { coins: 9 }, meta: { version: 1, userIds: 42 } });
  });

  it('a marker whose recovery never matches ends in Data.Conflict after a bounded number of store calls', async () => {
    const bed = testBed();
    // A store whose record carries a new trade marker each time it is read: a recovery can
    // never catch up with it.
    let reads = 0;
    const journals: string[] = [];
    const shifting: Store = {
      specificationVersion: 'v2',
      update: async (key, transform) => {
        if (key.includes('#trade/')) {
          journals.push(key);
          const journal = transform(undefined);
          return journal ? { record: journal, version: `j${journals.length}` } : undefined;
        }
        reads += 1;
        const current = {
          data: { coins: 1 },
          meta: { version: 1, trade: { id: `t${reads}`, journal: `j${reads}`, version: 1 } },
        };
        transform(current);
        return { record: current, version: `r${reads}` };
      },
      get: async () => undefined,
    };
    const driver = bed.driver('A', { store: shifting });
    const error = await bed.clock.run(driver.load('p1').catch((e: unknown) => e));
    expect(error).toMatchObject({ code: ErrorCode.Conflict });
    expect(reads).toBe(MAX_RUNS_PER_ATTEMPT);
    expect(journals.length).toBe(MAX_RUNS_PER_ATTEMPT);
    expect(bed.clock.now() - Date.UTC(2026, 0, 1)).toBe(0);
  });

  it('refuses a marker whose journal key holds something else, and leaves both untouched', async () => {
    const bed = testBed();
    const marker = { id: 't1', journal: 'PlayerData#trade/t1', version: 1 };
    bed.store.put(KEY, { data: { coins: 2 }, meta: { version: 1, trade: marker } });
    bed.store.put('PlayerData#trade/t1', {
      kind: 'datadriver.trade',
      id: 't1',
      state: 'committed',
      entries: { p1: 'x' },
      time: 0,
    });
    const journalBefore = JSON.stringify(bed.store.peek('PlayerData#trade/t1'));
    const recordBefore = JSON.stringify(bed.store.peek(KEY));
    const a = bed.driver('A');
    await expect(bed.clock.run(a.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.InvalidRecord,
    });
    expect(JSON.stringify(bed.store.peek('PlayerData#trade/t1'))).toBe(journalBefore);
    expect(JSON.stringify(bed.store.peek(KEY))).toBe(recordBefore);
  });

  it('refuses a value at the journal key that is not a journal, instead of deciding over it', async () => {
    const bed = testBed();
    const marker = { id: 't1', journal: 'PlayerData#trade/t1', version: 1 };
    bed.store.put(KEY, { data: { coins: 2 }, meta: { version: 1, trade: marker } });
    bed.store.put('PlayerData#trade/t1', { someone: 'else' });
    const a = bed.driver('A');
    await expect(bed.clock.run(a.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.InvalidRecord,
    });
    expect(bed.store.peek('PlayerData#trade/t1')).toEqual({ someone: 'else' });
  });

  it('a migration that throws refuses the record at once, without retrying', async () => {
    const bed = testBed();
    bed.store.put(KEY, { data: { coins: 2 }, meta: { version: 1 } });
    const counter = counted(bed.store);
    const migrations = [
      {
        version: 1,
        migrate: () => {
          throw new TypeError('bad step');
        },
      },
    ];
    const driver = bed.driver('A', { store: counter.store, migrations });
    await expect(bed.clock.run(driver.load('p1'))).rejects.toMatchObject({
      code: ErrorCode.InvalidRecord,
    });
    expect(counter.calls()).toBe(1);
    expect(bed.store.peek(KEY)).toEqual({ data: { coins: 2 }, meta: { version: 1 } });
  });
});

describe('defaults named like Object.prototype members', () => {
  it('are filled into an older record like any other default', async () => {
    const bed = testBed();
    bed.store.put(KEY, { data: { coins: 1 }, meta: { version: 1 } });
    const defaults = { coins: 0, constructor: 'c', toString: 't', hasOwnProperty: 1, valueOf: [] };
    const a = bed.driver('A', { defaults: defaults as unknown as { coins: number } });
    const profile = await bed.clock.run(a.load('p1'));
    expect(Object.entries(profile.data)).toEqual([
      ['coins', 1],
      ['constructor', 'c'],
      ['toString', 't'],
      ['hasOwnProperty', 1],
      ['valueOf', []],
    ]);
  });
});
