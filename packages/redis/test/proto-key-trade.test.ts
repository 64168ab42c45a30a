/**
 * A profile whose key is `__proto__`, traded on a real redis-server: server A dies mid-trade
 * (core's fault decorator around the real store stalls every call after a chosen write) and
 * server B, another driver, recovers both players from what Redis holds.
 */
import { DataDriver, type Logger, type Profile } from '@datadriver/core';
import { FaultyStore } from '@datadriver/core/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

type Bag = { coins: number; items?: string[]; name?: string };

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** Short lock ages so that B, with handoff off, takes a dead server's lock by age in ~1.2 s. */
const FAST_LOCKS = { lockTtlSeconds: 1, lockSkewSeconds: 0.2, autosaveSeconds: 0.5 } as const;

/** What Redis held for both players at the moment A died. */
interface Death {
  at?: { proto: unknown; bob: unknown };
}

/** Stalls every call of `store` once `when` holds for a write's key and result: A dies there. */
function dieAfter(
  store: FaultyStore,
  when: (key: string, result: unknown) => boolean,
  read: (key: string) => Promise<unknown>,
): Death {
  const death: Death = {};
  const original = store.update.bind(store);
  store.update = async (key, transform, options) => {
    const result = await original(key, transform, options);
    if (death.at === undefined && when(key, result?.record)) {
      store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      death.at = { proto: await read('__proto__'), bob: await read('bob') };
    }
    return result;
  };
  return death;
}

describe('a profile keyed __proto__, traded and crashed mid-trade, on Redis', () => {
  const clients = new Clients();
  let client: Redis;
  let store: RedisStore;

  beforeAll(async () => {
    client = await clients.open(redisUrl());
    store = new RedisStore({ client, prefix: uniquePrefix('proto') });
  });
  afterAll(() => clients.quitAll());

  const driver = (jobId: string, over: Partial<ConstructorParameters<typeof DataDriver>[0]>) =>
    new DataDriver<Bag>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      jobId,
      handoff: false,
      lockWaitSeconds: 5,
      logger: quiet,
      ...FAST_LOCKS,
      ...over,
    } as ConstructorParameters<typeof DataDriver<Bag>>[0]);

  const stored = async (key: string) =>
    JSON.parse((await client.hget(store.keyOf(`PlayerData/${key}`), 'record')) ?? 'null');

  /** A holds both players, dies at `when` during a trade of 10 coins; B loads both. */
  async function tradeThenDie(
    when: (key: string, result: unknown) => boolean,
  ): Promise<{ proto: Profile<Bag>; bob: Profile<Bag>; death: Death; close(): Promise<void> }> {
    const connection = new FaultyStore(store);
    const a = driver('A', { store: connection });
    const b = driver('B', {});
    const proto = await a.load('__proto__');
    const bob = await a.load('bob');
    proto.data = { coins: 10, items: ['sword', '__proto__'] };
    bob.data = { coins: 0, name: 'bob' };
    await proto.save();
    await bob.save();
    const death = dieAfter(connection, when, stored);
    void a
      .trade(proto, bob, (x, y) => {
        x.coins -= 10;
        y.coins += 10;
      })
      .catch(() => undefined);
    const [protoOnB, bobOnB] = await Promise.all([b.load('__proto__'), b.load('bob')]);
    return {
      proto: protoOnB,
      bob: bobOnB,
      death,
      close: async () => {
        await b.close();
        connection.faults.clear();
        await a.close();
      },
    };
  }

  it('a crash after the trade committed: B applies it to both players exactly and holds both locks', async () => {
    const { proto, bob, death, close } = await tradeThenDie(
      (key, result) =>
        key.includes('#trade/') &&
        (result as { state?: string } | undefined)?.state === 'committed',
    );
    // A died with both records marked and their data not yet moved: B did the recovery.
    expect(death.at).toMatchObject({
      proto: { data: { coins: 10 }, meta: { trade: expect.any(Object) } },
      bob: { data: { coins: 0 }, meta: { trade: expect.any(Object) } },
    });
    expect(proto.data).toEqual({ coins: 0, items: ['sword', '__proto__'] });
    expect(bob.data).toEqual({ coins: 10, name: 'bob' });
    expect(Object.getPrototypeOf(proto.data)).toBe(Object.prototype);
    expect((await stored('__proto__')).meta.lock.token).toBe(proto.lockToken);
    expect((await stored('bob')).meta.lock.token).toBe(bob.lockToken);
    await proto.release();
    await bob.release();
    const [protoStored, bobStored] = [await stored('__proto__'), await stored('bob')];
    expect(protoStored.data).toEqual({ coins: 0, items: ['sword', '__proto__'] });
    expect(bobStored.data).toEqual({ coins: 10, name: 'bob' });
    expect(protoStored.meta.trade).toBeUndefined();
    expect(bobStored.meta.trade).toBeUndefined();
    await close(); // A's stalled writes go on now, and must find their lock gone
    expect(await stored('__proto__')).toEqual(protoStored);
    expect(await stored('bob')).toEqual(bobStored);
  });

  it('a crash between prepare and commit: B aborts it, both players keep their data exactly', async () => {
    const { proto, bob, death, close } = await tradeThenDie(
      (key, result) =>
        key === 'PlayerData/bob' &&
        (result as { meta?: { trade?: unknown } } | undefined)?.meta?.trade !== undefined,
    );
    expect(death.at).toMatchObject({
      proto: { meta: { trade: expect.any(Object) } },
      bob: { meta: { trade: expect.any(Object) } },
    });
    expect(proto.data).toEqual({ coins: 10, items: ['sword', '__proto__'] });
    expect(bob.data).toEqual({ coins: 0, name: 'bob' });
    expect((await stored('__proto__')).meta.lock.token).toBe(proto.lockToken);
    expect((await stored('bob')).meta.lock.token).toBe(bob.lockToken);
    await proto.release();
    await bob.release();
    const [protoStored, bobStored] = [await stored('__proto__'), await stored('bob')];
    expect(protoStored.data).toEqual({ coins: 10, items: ['sword', '__proto__'] });
    expect(bobStored.data).toEqual({ coins: 0, name: 'bob' });
    expect(protoStored.meta.trade).toBeUndefined();
    expect(bobStored.meta.trade).toBeUndefined();
    await close(); // A's stalled writes go on now, and must find their lock gone
    expect(await stored('__proto__')).toEqual(protoStored);
    expect(await stored('bob')).toEqual(bobStored);
  });
});
