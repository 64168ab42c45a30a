import { createServer, type Server } from 'node:net';
import { DataDriverError, ErrorCode, type StoreRecord } from '@datadriver/core/ports';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { recordKey } from '../src/keys.js';
import {
  compareAndSet,
  compareAndSetFor,
  compareAndSetKeepingVersion,
  runScript,
} from '../src/scripts.js';
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
  it('declares port version v2 and keeps each record as a hash of a version and its JSON under the prefix', async () => {
    expect(store.specificationVersion).toBe('v2');
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

  it('given a stale snapshot, runs on it, then on the reply, then on a read, and stops at maxAttempts', async () => {
    const limited = new RedisStore({ client: raw, prefix, maxAttempts: 3 });
    const stale = await limited.update('contested-snapshot', () => ({ n: 0 }));
    await raw.hset(
      recordKey(prefix, 'contested-snapshot'),
      'version',
      'other-0',
      'record',
      '{"n":100}',
    );
    const seen: unknown[] = [];
    const failure = await limited
      .update(
        'contested-snapshot',
        (current) => {
          seen.push(current);
          // Another writer lands before each compare-and-set, on the same connection.
          void raw.hset(
            recordKey(prefix, 'contested-snapshot'),
            'version',
            `other-${seen.length}`,
            'record',
            `{"n":${100 + seen.length}}`,
          );
          return { n: (current?.n as number) + 1 };
        },
        stale ? { expected: stale } : {},
      )
      .catch((error: unknown) => error);
    expect(codeOf(failure)).toBe(ErrorCode.Conflict);
    // The snapshot handed in, the record the first conflict's reply carried, then a read.
    expect(seen).toEqual([{ n: 0 }, { n: 101 }, { n: 102 }]);
    expect(await store.get('contested-snapshot')).toEqual({ n: 103 });
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
    expect((await store.update('scripted', () => ({ n: 2 })))?.record).toEqual({ n: 2 });
    expect(await admin.script('EXISTS', compareAndSet.sha)).toEqual([1]);
  });

  it('sends a write that keeps no version as the script without the version functions', () => {
    expect(compareAndSetFor(['dd:{k}'])).toBe(compareAndSet);
    expect(compareAndSetFor(['dd:{k}', 'dd:{k}:versions', 'dd:{k}:records'])).toBe(
      compareAndSetKeepingVersion,
    );
    expect(compareAndSet.source).not.toContain('keep_version');
    expect(compareAndSetKeepingVersion.source).toContain('keep_version()');
  });

  it('applies a write once when ioredis resends it after a reconnect', async () => {
    const key = recordKey(prefix, 'resent');
    await store.update('resent', () => ({ n: 1 }));
    const read = await raw.hget(key, 'version');
    const args = [read!, 'new-version', '{"n":2}'];
    // Written: the status alone, a number (only a conflict's answer is a table).
    expect(await runScript(raw, compareAndSet, [key], args)).toBe(1);
    // The same call again (the resend): answered as written, and nothing is written twice.
    expect(await runScript(raw, compareAndSet, [key], [read!, 'new-version', '{"n":3}'])).toBe(1);
    expect(await raw.hgetall(key)).toEqual({ version: 'new-version', record: '{"n":2}' });
    // Another write that read the old version conflicts, told what is stored now.
    expect(await runScript(raw, compareAndSet, [key], [read!, 'third', '{"n":4}'])).toEqual([
      0,
      'new-version',
      '{"n":2}',
    ]);
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
    const now = await raw.hget(recordKey(prefix, 'reborn'), 'version');
    expect(now).not.toBe(before);
    expect(stale).toEqual([0, now, '{"n":1}']);
    expect(await store.get('reborn')).toEqual({ n: 1 });
  });

  it('answers a status as a number: a conflict with no record stored, a hash it did not write', async () => {
    const snapshot = await store.update('gone', () => ({ n: 1 }));
    await raw.del(recordKey(prefix, 'gone'));
    const key = recordKey(prefix, 'gone');
    expect(await runScript(raw, compareAndSet, [key], [snapshot!.version, 'y', '{}'])).toBe(0);
    expect(await raw.exists(key)).toBe(0);
    await raw.hset(recordKey(prefix, 'theirs'), 'name', 'someone else');
    const theirs = [recordKey(prefix, 'theirs')];
    expect(await runScript(raw, compareAndSet, theirs, ['', 'y', '{}'])).toBe(2);
    expect(await raw.hgetall(theirs[0]!)).toEqual({ name: 'someone else' });
    // The store reads the conflict's number: the transform runs again on no record, and writes.
    const seen: Array<StoreRecord | undefined> = [];
    const written = await store.update(
      'gone',
      (current) => {
        seen.push(current);
        return { n: 2 };
      },
      { expected: snapshot },
    );
    expect(seen).toEqual([{ n: 1 }, undefined]);
    expect(written?.record).toEqual({ n: 2 });
    expect(await store.get('gone')).toEqual({ n: 2 });
  });

  it("hands the transform the record and resolves with the transform's own record, unparsed", async () => {
    const seen: Array<StoreRecord | undefined> = [];
    const written = { list: [1, 2], nested: { text: 'é' } };
    const result = await store.update('copy', (current) => {
      seen.push(current);
      return written;
    });
    expect(result?.record).toBe(written);
    expect(result?.version).toBe(await raw.hget(recordKey(prefix, 'copy'), 'version'));
    expect(seen).toEqual([undefined]);
  });

  it('stamps versions of a random prefix per process and a counter, never the same twice', async () => {
    const first = await store.update('stamped', () => ({ n: 1 }));
    const second = await store.update('stamped', () => ({ n: 1 }), { expected: first! });
    const pattern = /^([A-Za-z0-9_-]{12})\.([0-9a-z]{11})$/;
    const [, firstPrefix, firstCount] = pattern.exec(first!.version) ?? [];
    const [, secondPrefix, secondCount] = pattern.exec(second!.version) ?? [];
    expect(secondPrefix).toBe(firstPrefix);
    expect(Number.parseInt(secondCount!, 36)).toBeGreaterThan(Number.parseInt(firstCount!, 36));
  });

  it('refuses a maxAttempts that is not a positive integer', () => {
    for (const maxAttempts of [0, -1, 1.5, Number.NaN]) {
      expect(() => new RedisStore({ client: raw, maxAttempts })).toThrowError(
        expect.objectContaining({ code: ErrorCode.InvalidConfig }),
      );
    }
  });
});

/** The commands `client` sends from now on, by name: each one a round trip. */
function commandsOf(client: Redis): string[] {
  const sent: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    sent.push(command.name);
    return send(command, stream);
  };
  return sent;
}

describe('what a write sends', () => {
  let own: Redis;
  let counted: RedisStore;
  let sent: string[];
  beforeAll(async () => {
    own = await clients.open();
    counted = new RedisStore({ client: own, prefix, versions: { keep: 5 } });
    sent = commandsOf(own);
  });
  const take = () => sent.splice(0);

  it('a write with no snapshot is one HGETALL and one EVALSHA', async () => {
    take();
    await counted.update('cost-read', () => ({ n: 1 }));
    expect(take()).toEqual(['hgetall', 'evalsha']);
  });

  it('a write given its last snapshot is one EVALSHA, no read, and resolves with the next', async () => {
    let snapshot = await counted.update('cost-cas', () => ({ n: 1 }));
    take();
    for (const n of [2, 3]) {
      snapshot = await counted.update(
        'cost-cas',
        (current) => ({ n: (current?.n as number) + 1 }),
        {
          expected: snapshot!,
        },
      );
      expect(take()).toEqual(['evalsha']);
      expect(snapshot?.record).toEqual({ n });
      expect(await raw.hgetall(recordKey(prefix, 'cost-cas'))).toEqual({
        version: snapshot?.version,
        record: JSON.stringify({ n }),
      });
    }
  });

  it('a moved version is answered with the current record and version: two EVALSHAs, no read', async () => {
    // A script's first call on a server is answered NOSCRIPT and sent again: not counted here.
    await counted.update('cost-moved-warm', () => ({ n: 0 }), { keepVersion: true });
    const stale = await counted.update('cost-moved', () => ({ n: 1 }));
    await raw.hset(recordKey(prefix, 'cost-moved'), 'version', 'theirs', 'record', '{"n":50}');
    take();
    const seen: Array<StoreRecord | undefined> = [];
    const result = await counted.update(
      'cost-moved',
      (current) => {
        seen.push(current);
        return { n: (current?.n as number) + 1 };
      },
      { expected: stale!, keepVersion: true },
    );
    expect(take()).toEqual(['evalsha', 'evalsha']);
    expect(seen).toEqual([{ n: 1 }, { n: 50 }]);
    expect(result?.record).toEqual({ n: 51 });
    expect(await counted.get('cost-moved')).toEqual({ n: 51 });
    // Only the attempt that landed kept a version.
    const versions = await counted.versions!.list('cost-moved');
    expect(versions.map((version) => version.id)).toEqual([result?.version]);
    expect(await counted.versions!.read('cost-moved', result!.version)).toEqual({ n: 51 });
  });

  it('a write of nothing on a snapshot reads to confirm it: one HGETALL, no EVALSHA', async () => {
    const snapshot = await counted.update('cost-nothing', () => ({ n: 1 }));
    take();
    const result = await counted.update('cost-nothing', () => undefined, { expected: snapshot! });
    expect(take()).toEqual(['hgetall']);
    expect(result).toEqual(snapshot);
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
