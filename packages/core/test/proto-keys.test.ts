import { describe, expect, it } from 'vitest';
import type { Profile } from '../src/index.js';
import type { FaultyStore } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

/** B, with handoff off, takes a dead server's lock by age (25 s) within one load. */
const WAITS_OUT_A_DEAD_LOCK = {
  lockTtlSeconds: 20,
  lockSkewSeconds: 5,
  autosaveSeconds: 10,
  lockWaitSeconds: 60,
} as const;

type Coins = { coins: number };

/** Data with an own key `__proto__`, as JSON.parse makes it. */
const PROTO_DATA = '{"coins":3,"__proto__":{"isAdmin":true}}';

/** Stalls every write of `store` once `when` holds for a write's result: the server dies there. */
function dieAfter(store: FaultyStore, when: (key: string, result: unknown) => boolean): void {
  const original = store.update.bind(store);
  store.update = async (key, transform, options) => {
    const result = await original(key, transform, options);
    if (when(key, result?.record))
      store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    return result;
  };
}

function expectOwnProto(data: object): void {
  expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  expect(Object.hasOwn(data, '__proto__')).toBe(true);
  expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ isAdmin: true });
  expect((data as { isAdmin?: unknown }).isAdmin).toBeUndefined();
}

describe('data keys named __proto__', () => {
  it('survive load, save and trade as own data, and never change a prototype', async () => {
    const bed = testBed();
    bed.store.putJson('PlayerData/alice', `{"data":${PROTO_DATA},"meta":{"version":1}}`);
    const a = bed.driver('A');
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(a.load('bob'));
    expectOwnProto(alice.data);
    await bed.clock.run(
      a.trade(alice, bob, (x, y) => {
        x.coins -= 1;
        y.coins += 1;
      }),
    );
    expectOwnProto(alice.data);
    expect(alice.data.coins).toBe(2);
    await bed.clock.run(alice.save());
    expect(bed.store.peekJson('PlayerData/alice')).toContain('"__proto__":{"isAdmin":true}');
    await bed.clock.run(alice.release());
    const again = await bed.clock.run(a.load('alice'));
    expectOwnProto(again.data);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });

  it('a default named __proto__ is filled as own data', async () => {
    const bed = testBed();
    bed.store.put('PlayerData/p1', { data: { coins: 1 }, meta: { version: 1 } });
    const defaults = JSON.parse('{"coins":0,"__proto__":{"isAdmin":true}}') as Coins;
    const a = bed.driver('A', { defaults });
    const profile = await bed.clock.run(a.load('p1'));
    expectOwnProto(profile.data);
  });
});

describe('a profile whose key is __proto__', () => {
  async function tradeThenDie(
    when: (key: string, result: unknown) => boolean,
  ): Promise<{ proto: Profile<Coins>; bob: Profile<Coins>; bed: ReturnType<typeof testBed> }> {
    const bed = testBed();
    const a = bed.server('A');
    const b = bed.driver('B', WAITS_OUT_A_DEAD_LOCK);
    const proto = await bed.clock.run(a.driver.load('__proto__'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    proto.data.coins = 10;
    await bed.clock.run(proto.save());
    dieAfter(a.store, when);
    void a.driver
      .trade(proto, bob, (x, y) => {
        x.coins -= 10;
        y.coins += 10;
      })
      .catch(() => undefined);
    await bed.clock.advance(0);
    const protoOnB = await bed.clock.run(b.load('__proto__'));
    const bobOnB = await bed.clock.run(b.load('bob'));
    return { proto: protoOnB, bob: bobOnB, bed };
  }

  it('keeps its side of a trade in the journal', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const proto = await bed.clock.run(a.driver.load('__proto__'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    let journal: unknown;
    dieAfter(a.store, (key, result) => {
      if (key.includes('#trade/')) journal ??= result;
      return false;
    });
    await bed.clock.run(
      a.driver.trade(proto, bob, (x) => {
        x.coins = 5;
      }),
    );
    expect(Object.keys((journal as { entries: object }).entries).sort()).toEqual([
      '__proto__',
      'bob',
    ]);
  });

  it('recovers a committed trade after a crash: the trade is applied, not {}', async () => {
    const { proto, bob, bed } = await tradeThenDie(
      (key, result) =>
        key.includes('#trade/') && (result as { state?: string }).state === 'committed',
    );
    expect(proto.data).toEqual({ coins: 0 });
    expect(bob.data).toEqual({ coins: 10 });
    expect(stored(bed.store, '__proto__')?.data).toEqual({ coins: 0 });
  });

  it('recovers a prepared trade after a crash: aborted, its data kept, not {}', async () => {
    const { proto, bob } = await tradeThenDie(
      (key, result) =>
        key === 'PlayerData/bob' &&
        (result as { meta?: { trade?: unknown } } | undefined)?.meta?.trade !== undefined,
    );
    expect(proto.data).toEqual({ coins: 10 });
    expect(bob.data).toEqual({ coins: 0 });
  });
});
