/**
 * Issue 14's cases on a real redis-server, as the issue reproduced them on the code before it.
 * Records are written past the adapter (HSET) as another program might; everything is read
 * back with the client's own commands.
 */
import { randomUUID } from 'node:crypto';
import { DataDriver, Handoff, type Profile, scaleTimings } from '@datadriver/core';
import {
  DataDriverError,
  ErrorCode,
  type Logger,
  MAX_MESSAGE_BYTES,
  type Store,
} from '@datadriver/core/ports';
import { topicOf } from '@datadriver/core/rules';
import { countedStore } from '@datadriver/testkit';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

type Bag = Record<string, unknown> & { coins: number };

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('data safety at the edges, on Redis', () => {
  const clients = new Clients();
  let client: Redis;
  let store: RedisStore;
  /** The store with each call counted: a flood shows as thousands. */
  let counter: ReturnType<typeof countedStore>;
  let prefix: string;

  beforeAll(async () => {
    client = await clients.open(redisUrl());
    prefix = uniquePrefix('safety');
    store = new RedisStore({ client, prefix });
    counter = countedStore(store);
  });
  afterAll(() => clients.quitAll());

  const driver = (jobId: string, over: Partial<ConstructorParameters<typeof DataDriver>[0]> = {}) =>
    new DataDriver<Bag>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: counter.store,
      jobId,
      handoff: false,
      lockWaitSeconds: 1,
      logger: quiet,
      ...over,
    } as ConstructorParameters<typeof DataDriver<Bag>>[0]);

  const write = (key: string, json: string) =>
    client.hset(store.keyOf(`PlayerData/${key}`), 'version', randomUUID(), 'record', json);
  const read = (key: string) => client.hget(store.keyOf(`PlayerData/${key}`), 'record');
  const keysMatching = async (pattern: string) => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, page] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      found.push(...page);
    } while (cursor !== '0');
    return found;
  };

  it('a marker whose id is an object is refused at once: one store call, no [object Object] journal', async () => {
    const json =
      '{"data":{"coins":4},"meta":{"version":3,"trade":{"id":{"a":1},"journal":"j","version":3}}}';
    await write('marker', json);
    const calls = counter.calls();
    const a = driver('A');
    const started = Date.now();
    await expect(a.load('marker')).rejects.toMatchObject({ code: ErrorCode.InvalidRecord });
    expect(Date.now() - started).toBeLessThan(500);
    expect(counter.calls() - calls).toBe(1);
    expect(await read('marker')).toBe(json);
    expect(await keysMatching(`${prefix}*object Object*`)).toEqual([]);
    await a.close();
  });

  /**
   * Every key of this file's store with its DUMP, and the names of every trade journal in the
   * Redis (other files' presence keys expire meanwhile, so not every key of the Redis).
   */
  const keyspace = async () => {
    const keys = (await keysMatching(`${prefix}*`)).sort();
    const dumps = await Promise.all(keys.map((key) => client.dumpBuffer(key)));
    const journals = (await keysMatching('*#trade/*')).sort();
    return { journals, values: new Map(keys.map((key, i) => [key, dumps[i]?.toString('hex')])) };
  };

  it.each([
    ['a marker that is a string', '{"data":{"coins":4},"meta":{"version":3,"trade":"x"}}'],
    [
      'a marker whose id is a number',
      '{"data":{"coins":4},"meta":{"version":3,"trade":{"id":7,"journal":"j","version":3}}}',
    ],
    [
      'a marker whose id is an array',
      '{"data":{"coins":4},"meta":{"version":3,"trade":{"id":["t"],"journal":"j","version":3}}}',
    ],
  ])(
    '%s is refused with Data.InvalidRecord: its bytes and every key of the store unchanged, no journal created',
    async (_, json) => {
      await write('marker2', json);
      const before = await keyspace();
      const a = driver('A');
      try {
        await expect(a.load('marker2')).rejects.toMatchObject({ code: ErrorCode.InvalidRecord });
        expect(await read('marker2')).toBe(json);
        expect(await keyspace()).toEqual(before);
        expect(before.values.get(store.keyOf('PlayerData/marker2'))).toBeDefined();
      } finally {
        await a.close();
      }
    },
  );

  it('a record nested 10,000 levels and userIds that are not strings are refused before any write', async () => {
    const deep = `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)},"meta":{"version":1}}`;
    const badIds = '{"data":{"coins":9},"meta":{"version":1,"userIds":42}}';
    await write('deep', deep);
    await write('ids', badIds);
    const a = driver('A');
    const started = Date.now();
    await expect(a.load('deep')).rejects.toMatchObject({ code: ErrorCode.InvalidRecord });
    await expect(a.load('ids')).rejects.toMatchObject({ code: ErrorCode.InvalidRecord });
    expect(Date.now() - started).toBeLessThan(500); // not after lockWaitSeconds
    expect(await read('deep')).toBe(deep);
    expect(await read('ids')).toBe(badIds);
    await a.close();
  });

  it('__proto__ as a data key survives a trade and a save; a __proto__ profile keeps its journal entry', async () => {
    await write('alice', '{"data":{"coins":3,"__proto__":{"isAdmin":true}},"meta":{"version":1}}');
    const a = driver('A');
    const alice = await a.load('alice');
    const proto = await a.load('__proto__');
    const journals: string[] = [];
    const spying = driver('J', {
      store: {
        specificationVersion: 'v2',
        get: (key: string) => store.get(key),
        update: async (
          key: string,
          transform: Parameters<Store['update']>[1],
          options: Parameters<Store['update']>[2],
        ) => {
          const result = await store.update(key, transform, options);
          if (key.includes('#trade/') && result) journals.push(JSON.stringify(result.record));
          return result;
        },
      },
      name: 'Spied',
    });
    await a.trade(alice, proto, (x, y) => {
      x.coins -= 1;
      y.coins += 1;
    });
    expect(Object.getPrototypeOf(alice.data)).toBe(Object.prototype);
    expect((alice.data as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    await alice.save();
    expect(await read('alice')).toContain('"__proto__":{"isAdmin":true}');
    // The same trade through a store that shows the journal: both entries are kept.
    const x = await spying.load('x');
    const p = await spying.load('__proto__');
    await spying.trade(x, p, (one) => {
      one.coins = 1;
    });
    expect(Object.keys(JSON.parse(journals[0] ?? '{}').entries ?? {}).sort()).toEqual([
      '__proto__',
      'x',
    ]);
    await a.close();
    await spying.close();
  });

  it('a save of data JSON would change fails with Data.InvalidData and writes nothing', async () => {
    const a = driver('A');
    const profile = (await a.load('dated')) as Profile<Bag>;
    const before = await read('dated');
    profile.data.inventory = [0, 1, 2, { createdAt: new Date(0) }];
    await expect(profile.save()).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      message: expect.stringContaining('data.inventory[3].createdAt is a Date'),
    });
    expect(await read('dated')).toBe(before);
    profile.data.inventory = [];
    await profile.release();
    expect(JSON.parse((await read('dated')) ?? '{}').meta.lock).toBeUndefined();
    await a.close();
  });

  it('a second driver of one name over the store on one server is refused', async () => {
    const a = driver('A');
    expect(() => driver('A')).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
    await a.close();
    await driver('A').close(); // the name is free again
  });

  it('two RedisStore objects over one Redis, one name and jobId, handoff off: the second load fails with Data.Locked, the first keeps its lock and saves', async () => {
    const other = new RedisStore({ client: await clients.open(redisUrl()), prefix });
    const a = driver('A');
    const b = driver('A', { store: other });
    const stored = async () => JSON.parse((await read('twice')) ?? '{}');
    try {
      const held = await a.load('twice');
      held.data.coins = 5;
      await held.save();
      await expect(b.load('twice')).rejects.toMatchObject({ code: ErrorCode.Locked });
      expect((await stored()).meta.lock.token).toBe(held.lockToken);
      held.data.coins = 6;
      await held.save();
      expect(held.active).toBe(true);
      expect(await stored()).toMatchObject({
        data: { coins: 6 },
        meta: { lock: { token: held.lockToken } },
      });
      await held.release();
      expect((await b.load('twice')).data).toEqual({ coins: 6 });
    } finally {
      await a.close();
      await b.close();
    }
    expect((await stored()).meta.lock).toBeUndefined();
  });

  it('the messenger drops a payload over 1 kB unparsed, and delivers one that fits', async () => {
    const messenger = new RedisMessenger({ client, prefix: uniquePrefix('bus') });
    const heard: unknown[] = [];
    await messenger.subscribe('t', (message) => void heard.push(message));
    await client.publish(
      messenger.channelOf('t'),
      JSON.stringify({ pad: 'x'.repeat(MAX_MESSAGE_BYTES) }),
    );
    await client.publish(messenger.channelOf('t'), JSON.stringify({ pad: 'fits' }));
    for (let waited = 0; heard.length === 0 && waited < 2_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(heard).toEqual([{ pad: 'fits' }]);
    await messenger.close();
  });

  it("a reply every 20 ms to the joining server does not stop a crashed holder's lock being taken (seed's 10 to 15 s, at scale 0.1)", async () => {
    const busPrefix = uniquePrefix('crash');
    const messenger = new RedisMessenger({ client, prefix: busPrefix });
    const presence = new RedisPresence({ client, prefix: busPrefix });
    const timings = scaleTimings(0.1); // 0.3 s beat, 1 s presence TTL
    const server = (jobId: string) => {
      const handoff = new Handoff({ jobId, messenger, presence, timings, logger: quiet });
      const made = driver(jobId, {
        handoff,
        messenger,
        presence,
        lockWaitSeconds: 2,
        name: 'Crash',
      });
      return { handoff, driver: made };
    };
    const a = server('A');
    const b = server('B');
    await a.driver.load('p1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await a.handoff.destroy(); // A stops dead: no beat, no replies, its lock stays
    const crashedAt = Date.now();
    const spoofing = setInterval(() => {
      void client.publish(
        messenger.channelOf(topicOf('B')),
        JSON.stringify({ T: 'R', D: 'Crash', K: 'p1' }),
      );
    }, 20);
    try {
      const taken = await b.driver.load('p1').catch((error: unknown) => error);
      expect(DataDriverError.isInstance(taken), String(taken)).toBe(false);
      const elapsed = Date.now() - crashedAt;
      // Presence expires at most 1 s after the last beat (at most 0.3 s before the crash), the
      // silence lasts 0.3 s, the retry spacing adds up to 0.2 s; 0.75 s of slack on top.
      expect(elapsed).toBeGreaterThanOrEqual(700);
      expect(elapsed).toBeLessThanOrEqual(1_500 + 750);
    } finally {
      clearInterval(spoofing);
      await a.driver.close(); // its release finds the lock taken: nothing is written
      await b.driver.close();
      await b.handoff.destroy();
      await messenger.close();
    }
  });
});
