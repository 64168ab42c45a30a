import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, type Store } from '../src/index.js';
import {
  checkVersionQuery,
  checkVersionRetention,
  type VersionQuery,
  type VersionRetention,
} from '../src/ports.js';
import { MemoryStore, VirtualClock } from '../src/testing.js';

const BAD_RETENTIONS: ReadonlyArray<readonly [VersionRetention, string]> = [
  [{ keep: 0 }, 'versions.keep must be a positive integer, got 0'],
  [{ keep: -1 }, 'versions.keep must be a positive integer, got -1'],
  [{ keep: 1.5 }, 'versions.keep must be a positive integer, got 1.5'],
  [{ keep: Number.NaN }, 'versions.keep must be a positive integer, got NaN'],
  [{ maxAgeSeconds: 0 }, 'versions.maxAgeSeconds must be a positive number, got 0'],
  [{ maxAgeSeconds: Number.NaN }, 'versions.maxAgeSeconds must be a positive number, got NaN'],
  [
    { maxAgeSeconds: Number.POSITIVE_INFINITY },
    'versions.maxAgeSeconds must be a positive number, got Infinity',
  ],
];

const BAD_QUERIES: ReadonlyArray<readonly [VersionQuery, string]> = [
  [{ before: Number.NaN }, 'not NaN'],
  [{ after: Number.NaN }, 'not NaN'],
  [{ limit: -1 }, 'limit must be an integer of 0 or more, got -1'],
  [{ limit: 1.5 }, 'limit must be an integer of 0 or more, got 1.5'],
  [{ limit: Number.NaN }, 'limit must be an integer of 0 or more, got NaN'],
];

describe('checkVersionRetention', () => {
  it.each([{}, { keep: 1 }, { maxAgeSeconds: 0.5 }, { keep: 3, maxAgeSeconds: 60 }])(
    'accepts %j',
    (retention) => {
      expect(() => checkVersionRetention(retention)).not.toThrow();
    },
  );

  it.each(BAD_RETENTIONS)('refuses %j with Data.InvalidConfig', (retention, message) => {
    expect(() => checkVersionRetention(retention)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
    expect(() => checkVersionRetention(retention)).toThrow(message);
  });

  it('refuses a retention that is not an object', () => {
    expect(() => checkVersionRetention(null as unknown as VersionRetention)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });
});

describe('checkVersionQuery', () => {
  it.each([
    {},
    { limit: 0 },
    { before: Number.NEGATIVE_INFINITY, after: Number.POSITIVE_INFINITY },
    { before: 1.5, after: -3, limit: 2 },
  ])('accepts %j', (query) => {
    expect(() => checkVersionQuery(query)).not.toThrow();
  });

  it.each(BAD_QUERIES)('refuses %j with Data.InvalidArgument', (query, message) => {
    expect(() => checkVersionQuery(query)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidArgument }),
    );
    expect(() => checkVersionQuery(query)).toThrow(message);
  });
});

describe('MemoryStore versions', () => {
  it.each(BAD_RETENTIONS)('refuses retention %j at construction', (versions, message) => {
    expect(() => new MemoryStore({ versions })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
    expect(() => new MemoryStore({ versions })).toThrow(message);
  });

  it.each(BAD_QUERIES)('refuses query %j instead of answering it', async (query) => {
    const store = new MemoryStore({ versions: { keep: 5 }, clock: new VirtualClock() });
    await store.update('k', () => ({ n: 1 }), { keepVersion: true });
    await store.update('k', () => ({ n: 2 }), { keepVersion: true });
    // Before the check, { limit: -1 } silently dropped the oldest version from the answer.
    await expect(store.versions!.list('k', query)).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
    expect(await store.versions!.list('k')).toHaveLength(2);
    expect(await store.versions!.list('k', { limit: 0 })).toEqual([]);
  });
});

describe('DataDriver history calls', () => {
  /** A store of another package whose history checks nothing and records what it was asked. */
  function uncheckedStore() {
    const asked: VersionQuery[] = [];
    const inner = new MemoryStore();
    const store: Store = {
      specificationVersion: 'v2',
      update: (key, transform, options) => inner.update(key, transform, options),
      get: (key) => inner.get(key),
      versions: {
        list: async (_key, query = {}) => {
          asked.push(query);
          return [];
        },
        read: async () => undefined,
        purge: async () => undefined,
      },
    };
    const clock = new VirtualClock();
    const driver = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'A',
    });
    return { asked, driver, inner };
  }

  it.each(BAD_QUERIES)('versions() refuses %j before the store sees it', async (query) => {
    const { asked, driver } = uncheckedStore();
    await expect(driver.versions('p1', query)).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
    expect(asked).toEqual([]);
  });

  it('restoreAt() refuses an invalid Date, touching nothing', async () => {
    const { asked, driver, inner } = uncheckedStore();
    await expect(driver.restoreAt('p1', new Date(Number.NaN))).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
    await expect(driver.restoreAt('p1', Number.NaN)).rejects.toMatchObject({
      code: ErrorCode.InvalidArgument,
    });
    expect(asked).toEqual([]);
    expect(inner.keys()).toEqual([]);
  });
});
