import { createServer, type Server } from 'node:net';
import { DataDriverError, ErrorCode, type StoreRecord } from '@datadriver/core/ports';
import { recordingLogger } from '@datadriver/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { recordKey } from '../src/keys.js';
import { compareAndSet, runScript } from '../src/scripts.js';
import {
  Clients,
  redisProxy,
  redisUrl,
  TEST_OPTIONS,
  throughProxy,
  uniquePrefix,
} from './support/redis.js';

const clients = new Clients();
let raw: Redis;
let prefix: string;
let store: RedisStore;

beforeAll(async () => {
  raw = await clients.open();
  prefix = uniquePrefix('store-own');
  store = new RedisStore({ client: raw, prefix });
});
afterAll(() => clients.quitAll());

const codeOf = (error: unknown) => (DataDriverError.isInstance(error) ? error.code : error);

describe('RedisStore', () => {
  it('declares port version v1 and keeps each record as a hash of a version and its JSON under the prefix', async () => {
    expect(store.specificationVersion).toBe('v1');
    await store.update('user/1', () => ({ coins: 1 }));
    const first = await raw.hgetall(recordKey(prefix, 'user/1'));
    expect(Object.keys(first).sort()).toEqual(['record', 'version']);
    expect(JSON.parse(first.record!)).toEqual({ coins: 1 });
    await store.update('user/1', (current) => ({ coins: (current?.coins as number) + 1 }));
    const second = await raw.hgetall(recordKey(prefix, 'user/1'));
    expect(JSON.parse(second.record!)).toEqual({ coins: 2 });
    expect(second.version).not.toBe(first.version);
    expect(store.keyOf('user/1')).toBe(`${prefix}{user/1}`);
  });

  it('never loses a write: 100 concurrent updates of one key from 8 clients', async () => {
    // A budget far above the default: this stress test is about lost writes, not about how
    // many attempts a loaded machine needs.
    const stores = await Promise.all(
      Array.from(
        { length: 8 },
        async () => new RedisStore({ client: await clients.open(), prefix, maxAttempts: 100 }),
      ),
    );
    const count = 100;
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        stores[index % stores.length]!.update('counter', (current) => ({
          n: ((current?.n as number | undefined) ?? 0) + 1,
          writers: [...((current?.writers as number[] | undefined) ?? []), index],
        })),
      ),
    );
    const final = (await store.get('counter')) as { n: number; writers: number[] };
    expect(final.n).toBe(count);
    expect([...final.writers].sort((a, b) => a - b)).toEqual(
      Array.from({ length: count }, (_, index) => index),
    );
  });

  it('rejects with Data.Conflict after maxAttempts, re-running the transform on each conflict', async () => {
    const limited = new RedisStore({ client: raw, prefix, maxAttempts: 3 });
    await limited.update('contested', () => ({ n: 0 }));
    let runs = 0;
    const failure = await limited
      .update('contested', (current) => {
        runs += 1;
        // Another writer lands between every read and write: on the same connection, so it
        // reaches Redis before the compare-and-set does.
        void raw.hset(
          recordKey(prefix, 'contested'),
          'version',
          `other-${runs}`,
          'record',
          '{"n":100}',
        );
        return { n: (current?.n as number) + 1 };
      })
      .catch((error: unknown) => error);
    expect(codeOf(failure)).toBe(ErrorCode.Conflict);
    expect(runs).toBe(3);
    expect(await store.get('contested')).toEqual({ n: 100 });
  });

  it('leaves values it did not write untouched and reports them as Data.InvalidRecord', async () => {
    await raw.set(recordKey(prefix, 'a-string'), 'hello');
    await raw.hset(recordKey(prefix, 'a-hash'), 'name', 'someone else');
    await raw.hset(recordKey(prefix, 'bad-json'), 'version', 'v', 'record', '{not json');
    await raw.hset(recordKey(prefix, 'not-object'), 'version', 'v', 'record', '[1,2]');
    for (const key of ['a-string', 'a-hash', 'bad-json', 'not-object']) {
      expect(codeOf(await store.get(key).catch((error: unknown) => error))).toBe(
        ErrorCode.InvalidRecord,
      );
      const write = await store.update(key, () => ({ n: 1 })).catch((error: unknown) => error);
      expect(codeOf(write)).toBe(ErrorCode.InvalidRecord);
    }
    expect(await raw.get(recordKey(prefix, 'a-string'))).toBe('hello');
    expect(await raw.hgetall(recordKey(prefix, 'a-hash'))).toEqual({ name: 'someone else' });
    expect(await raw.hget(recordKey(prefix, 'bad-json'), 'record')).toBe('{not json');
  });

  it('runs the script by SHA and loads it again after Redis lost it (SCRIPT FLUSH)', async () => {
    const admin = await clients.open();
    await store.update('scripted', () => ({ n: 1 }));
    expect(await admin.script('EXISTS', compareAndSet.sha)).toEqual([1]);
    await admin.script('FLUSH');
    expect(await admin.script('EXISTS', compareAndSet.sha)).toEqual([0]);
    expect(await store.update('scripted', () => ({ n: 2 }))).toEqual({ n: 2 });
    expect(await admin.script('EXISTS', compareAndSet.sha)).toEqual([1]);
  });

  it('applies a write once when ioredis resends it after a reconnect', async () => {
    const key = recordKey(prefix, 'resent');
    await store.update('resent', () => ({ n: 1 }));
    const read = await raw.hget(key, 'version');
    const args = [read!, 'new-version', '{"n":2}'];
    expect(await runScript(raw, compareAndSet, [key], args)).toEqual([1]);
    // The same call again (the resend): answered as written, and nothing is written twice.
    expect(await runScript(raw, compareAndSet, [key], [read!, 'new-version', '{"n":3}'])).toEqual([
      1,
    ]);
    expect(await raw.hgetall(key)).toEqual({ version: 'new-version', record: '{"n":2}' });
    // Another write that read the old version conflicts.
    expect(await runScript(raw, compareAndSet, [key], [read!, 'third', '{"n":4}'])).toEqual([0]);
  });

  it('does not take a version read before a delete for the record created after it', async () => {
    await store.update('reborn', () => ({ n: 1 }));
    const before = await raw.hget(recordKey(prefix, 'reborn'), 'version');
    expect(await store.update('reborn', () => null)).toBeUndefined();
    await store.update('reborn', () => ({ n: 1 }));
    const stale = await runScript(
      raw,
      compareAndSet,
      [recordKey(prefix, 'reborn')],
      [before!, 'x', '{}'],
    );
    expect(stale).toEqual([0]);
    expect(await store.get('reborn')).toEqual({ n: 1 });
  });

  it('hands the transform the record and resolves a copy of what it stored', async () => {
    const seen: Array<StoreRecord | undefined> = [];
    const written = { list: [1, 2], nested: { text: 'é' } };
    const result = await store.update('copy', (current) => {
      seen.push(current);
      return written;
    });
    expect(result).toEqual(written);
    expect(result).not.toBe(written);
    expect(seen).toEqual([undefined]);
  });

  it('refuses a maxAttempts that is not a positive integer', () => {
    for (const maxAttempts of [0, -1, 1.5, Number.NaN]) {
      expect(() => new RedisStore({ client: raw, maxAttempts })).toThrowError(
        expect.objectContaining({ code: ErrorCode.InvalidConfig }),
      );
    }
  });
});

describe('failing fast with the recommended client options', () => {
  it('rejects with Data.Unavailable within a second while Redis is unreachable', async () => {
    const proxy = await redisProxy();
    const client = await clients.open(throughProxy(redisUrl(), proxy));
    const cut = new RedisStore({ client, prefix });
    await proxy.stop();
    try {
      const started = Date.now();
      const failure = await cut.get('anything').catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(codeOf(failure)).toBe(ErrorCode.Unavailable);
      expect((failure as Error).cause).toBeInstanceOf(Error);
    } finally {
      await proxy.close();
    }
  });

  it('rejects with Data.Unavailable after commandTimeout when the connection hangs', async () => {
    // A server that accepts connections and never answers: a black-holed route.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const client = clients.add(
      new Redis(port, '127.0.0.1', { ...TEST_OPTIONS, commandTimeout: 200 }),
    );
    client.on('error', () => undefined);
    try {
      const started = Date.now();
      const failure = await new RedisStore({ client, prefix })
        .update('k', () => ({ n: 1 }))
        .catch((error: unknown) => error);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(codeOf(failure)).toBe(ErrorCode.Unavailable);
      expect(String((failure as Error).cause)).toMatch(/Command timed out/);
    } finally {
      client.disconnect();
      silent.close();
    }
  });

  it('warns once per client that has no commandTimeout', async () => {
    const logger = recordingLogger();
    const { lines } = logger;
    const slow = clients.add(new Redis(redisUrl(), { lazyConnect: true }));
    new RedisStore({ client: slow, logger });
    new RedisStore({ client: slow, logger });
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/no commandTimeout/);
    new RedisStore({ client: raw, logger });
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });
});
