import { setTimeout as sleep } from 'node:timers/promises';
import { DataDriverError, ErrorCode, type VersionRetention } from '@datadriver/core/ports';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { recordKey, versionKeys } from '../src/keys.js';
import { compareAndSetFor, runScript } from '../src/scripts.js';
import { keySlot } from './support/key-slot.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
let raw: Redis;
let prefix: string;

beforeAll(async () => {
  raw = await clients.open();
  prefix = uniquePrefix('versions');
});
afterAll(() => clients.quitAll());

const codeOf = (error: unknown) => (DataDriverError.isInstance(error) ? error.code : error);
const keep = { keepVersion: true };

function versioned(versions: VersionRetention = { keep: 50 }): RedisStore {
  return new RedisStore({ client: raw, prefix, versions });
}

/** The Redis clock (TIME) in ms. */
async function redisNow(): Promise<number> {
  const [seconds, micros] = (await raw.time()).map(Number);
  return seconds! * 1000 + micros! / 1000;
}

/** What the versions keys of store key `key` hold, read without the adapter. */
async function stored(key: string) {
  const { index, records } = versionKeys(prefix, key);
  return {
    scores: (await raw.zrange(index, 0, -1, 'WITHSCORES')).filter((_, at) => at % 2 === 1),
    records: await raw.hlen(records),
    exists: await raw.exists(index, records),
  };
}

describe('RedisStore versions: layout', () => {
  it('keeps versions only when the store has them and the write asks', async () => {
    const plain = new RedisStore({ client: raw, prefix });
    expect(plain.versions).toBeUndefined();
    await plain.update('plain', () => ({ n: 1 }), keep);
    expect((await stored('plain')).exists).toBe(0);
    const store = versioned();
    await store.update('unasked', () => ({ n: 1 }));
    expect((await stored('unasked')).exists).toBe(0);
    await store.update('unasked', () => ({ n: 2 }), keep);
    expect(await stored('unasked')).toMatchObject({ records: 1, exists: 2 });
    await store.update('unasked', () => undefined, keep);
    await store.update('unasked', () => null, keep);
    expect(await stored('unasked')).toMatchObject({ records: 1, exists: 2 });
  });

  it("names the versions keys after the record's tag, so a Cluster puts them in its slot", () => {
    const { index, records } = versioned().versions!.keysOf('PlayerData/user-42');
    expect({ index, records }).toEqual({
      index: `${prefix}{PlayerData/user-42}:versions`,
      records: `${prefix}{PlayerData/user-42}:versions:records`,
    });
    const slot = keySlot(recordKey(prefix, 'PlayerData/user-42'));
    expect([keySlot(index), keySlot(records)]).toEqual([slot, slot]);
  });
});

describe('RedisStore versions: time and ids', () => {
  it('stamps each version with the Redis clock at the commit', async () => {
    const store = versioned();
    const before = await redisNow();
    await store.update('clock', () => ({ n: 1 }), keep);
    const after = await redisNow();
    const [version] = await store.versions!.list('clock');
    expect(version!.time).toBeGreaterThanOrEqual(Math.floor(before));
    expect(version!.time).toBeLessThanOrEqual(after);
  });

  it('orders versions by commit even within one millisecond, or when the clock reads earlier', async () => {
    const store = versioned();
    for (let n = 1; n <= 20; n += 1) await store.update('burst', () => ({ n }), keep);
    const { scores } = await stored('burst');
    expect(new Set(scores).size).toBe(20);
    const listed = await store.versions!.list('burst');
    const values = await Promise.all(
      listed.map(async ({ id }) => (await store.versions!.read('burst', id))?.n),
    );
    expect(values).toEqual(Array.from({ length: 20 }, (_, at) => 20 - at));
    // A newest version an hour ahead (a clock that stepped back since): the next one follows it.
    const { index } = versionKeys(prefix, 'burst');
    const ahead = Math.round((await redisNow()) + 3_600_000) * 1000;
    await raw.zadd(index, ahead, 'from-the-future');
    await store.update('burst', () => ({ n: 21 }), keep);
    const [newest, second] = await store.versions!.list('burst', { limit: 2 });
    expect(second!.id).toBe('from-the-future');
    expect(await store.versions!.read('burst', newest!.id)).toEqual({ n: 21 });
    expect(Number(await raw.zscore(index, newest!.id))).toBe(ahead + 1);
  });

  it('keeps exactly one version for an update that met a compare-and-set conflict', async () => {
    const store = versioned();
    await store.update('contested', () => ({ n: 0 }));
    let runs = 0;
    await store.update(
      'contested',
      (current) => {
        runs += 1;
        // Another writer lands between the first read and its write (same connection, so it
        // reaches Redis first); that writer keeps no version.
        if (runs === 1)
          void raw.hset(recordKey(prefix, 'contested'), 'version', 'other', 'record', '{"n":7}');
        return { n: (current?.n as number) + 1 };
      },
      keep,
    );
    expect(runs).toBe(2);
    const versions = await store.versions!.list('contested');
    expect(versions).toHaveLength(1);
    expect(await store.versions!.read('contested', versions[0]!.id)).toEqual({ n: 8 });
    expect(await stored('contested')).toMatchObject({ records: 1 });
  });

  it('keeps one version for a write that ioredis resends after it landed', async () => {
    const { index, records } = versionKeys(prefix, 'resent');
    const args = ['', 'the-write', '{"n":1}', '50', ''];
    const keys = [recordKey(prefix, 'resent'), index, records];
    expect(await runScript(raw, compareAndSetFor(keys), keys, args)).toBe(1);
    expect(await runScript(raw, compareAndSetFor(keys), keys, args)).toBe(1);
    expect(await raw.zrange(index, 0, -1)).toEqual(['the-write']);
  });

  it('gives ids unique per key across a delete, a re-create and a purge', async () => {
    const store = versioned();
    const history = store.versions!;
    await store.update('reborn', () => ({ n: 1 }), keep);
    await store.update('reborn', () => null);
    await store.update('reborn', () => ({ n: 2 }), keep);
    const before = await history.list('reborn');
    expect(before).toHaveLength(2);
    expect(new Set(before.map(({ id }) => id)).size).toBe(2);
    expect(await history.read('reborn', before[0]!.id)).toEqual({ n: 2 });
    expect(await history.read('reborn', before[1]!.id)).toEqual({ n: 1 });
    await history.purge('reborn');
    await store.update('reborn', () => ({ n: 3 }), keep);
    const [after] = await history.list('reborn');
    expect(before.map(({ id }) => id)).not.toContain(after!.id);
    for (const { id } of before) expect(await history.read('reborn', id)).toBeUndefined();
  });
});

describe('RedisStore versions: retention', () => {
  it('drops versions past maxAgeSeconds: reads skip them, writes prune them, a quiet history expires', async () => {
    const store = versioned({ keep: 50, maxAgeSeconds: 0.5 });
    const history = store.versions!;
    await store.update('aging', () => ({ n: 1 }), keep);
    const [first] = await history.list('aging');
    await sleep(300);
    await store.update('aging', () => ({ n: 2 }), keep);
    await sleep(300);
    // The first is 600 ms old, the second 300 ms: only the second is served, both still stored.
    expect((await history.list('aging')).map(({ id }) => id)).not.toContain(first!.id);
    expect(await history.list('aging')).toHaveLength(1);
    expect(await history.read('aging', first!.id)).toBeUndefined();
    expect(await stored('aging')).toMatchObject({ records: 2 });
    await store.update('aging', () => ({ n: 3 }), keep);
    expect(await stored('aging')).toMatchObject({ records: 2 });
    const { index } = versionKeys(prefix, 'aging');
    expect(await raw.pttl(index)).toBeGreaterThan(0);
    expect(await raw.pttl(index)).toBeLessThanOrEqual(501);
    await sleep(600);
    expect((await stored('aging')).exists).toBe(0);
    expect(await store.get('aging')).toEqual({ n: 3 });
  });

  it('applies the count on reads too, so a store with a smaller keep never serves more', async () => {
    const wide = versioned({ keep: 5 });
    for (let n = 1; n <= 5; n += 1) await wide.update('narrowed', () => ({ n }), keep);
    const all = await wide.versions!.list('narrowed');
    const narrow = versioned({ keep: 2 }).versions!;
    expect(await narrow.list('narrowed')).toEqual(all.slice(0, 2));
    expect(await narrow.list('narrowed', { before: all[2]!.time })).toEqual(
      all.slice(0, 2).filter(({ time }) => time <= all[2]!.time),
    );
    expect(await narrow.read('narrowed', all[2]!.id)).toBeUndefined();
    expect(await wide.versions!.read('narrowed', all[2]!.id)).toEqual({ n: 3 });
  });

  it('purge removes every trace of the history, and nothing else', async () => {
    const store = versioned({ keep: 3, maxAgeSeconds: 60 });
    for (let n = 1; n <= 4; n += 1) await store.update('purged', () => ({ n }), keep);
    await store.versions!.purge('purged');
    expect(await raw.keys(`${recordKey(prefix, 'purged')}*`)).toEqual([
      recordKey(prefix, 'purged'),
    ]);
    expect(await store.versions!.list('purged')).toEqual([]);
    expect(await store.get('purged')).toEqual({ n: 4 });
    await store.versions!.purge('purged'); // nothing left to purge
  });
});

describe('RedisStore versions: refusals', () => {
  it('refuses a retention that is not positive', () => {
    for (const versions of [
      { keep: 0 },
      { keep: 1.5 },
      { keep: -1 },
      { maxAgeSeconds: 0 },
      { maxAgeSeconds: Number.NaN },
      { maxAgeSeconds: Number.POSITIVE_INFINITY },
    ]) {
      expect(() => new RedisStore({ client: raw, versions })).toThrowError(
        expect.objectContaining({ code: ErrorCode.InvalidConfig }),
      );
    }
  });

  it('refuses a query that is not one, and answers one no version can match with none', async () => {
    const history = versioned().versions!;
    for (const query of [{ before: Number.NaN }, { limit: -1 }, { limit: 1.5 }]) {
      const failure = await history.list('any', query).catch((error: unknown) => error);
      expect(codeOf(failure)).toBe(ErrorCode.InvalidArgument);
    }
    expect(await history.list('any', { limit: 0 })).toEqual([]);
    expect(await history.list('any', { before: Number.NEGATIVE_INFINITY })).toEqual([]);
  });

  it('leaves a value it did not write under a versions key untouched, and the record too', async () => {
    const store = versioned();
    await store.update('squatted', () => ({ n: 1 }));
    const { index } = versionKeys(prefix, 'squatted');
    await raw.set(index, 'someone else');
    const failure = await store
      .update('squatted', () => ({ n: 2 }), keep)
      .catch((error: unknown) => error);
    expect(codeOf(failure)).toBe(ErrorCode.InvalidRecord);
    expect(await raw.get(index)).toBe('someone else');
    expect(await store.get('squatted')).toEqual({ n: 1 });
    const listing = await store.versions!.list('squatted').catch((error: unknown) => error);
    expect(codeOf(listing)).toBe(ErrorCode.InvalidRecord);
  });
});
