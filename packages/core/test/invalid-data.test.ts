import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, type Profile } from '../src/index.js';
import { findJsonProblem } from '../src/rules/index.js';
import { MemoryHost, MemoryStore } from '../src/testing.js';
import { stored, testBed } from './helpers.js';

class Item {
  constructor(readonly name: string) {}
}

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

const circular: Record<string, unknown> = {};
circular.self = circular;

/** Values that JSON would change, drop or refuse, and what the error says they are. */
const BAD: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ['a Map', () => new Map([['a', 1]]), 'is a Map'],
  ['a Set', () => new Set([1]), 'is a Set'],
  ['a Date', () => new Date(0), 'is a Date'],
  ['NaN', () => Number.NaN, 'is NaN'],
  ['Infinity', () => Number.POSITIVE_INFINITY, 'is Infinity'],
  ['-Infinity', () => Number.NEGATIVE_INFINITY, 'is -Infinity'],
  ['undefined', () => undefined, 'is undefined'],
  ['a function', () => () => 1, 'is a function'],
  ['a class instance', () => new Item('sword'), 'is a Item'],
  ['a BigInt', () => 10n, 'is a BigInt'],
  ['a circular object', () => circular, 'is circular'],
  ['nesting past 64 levels', () => deep(70), 'nested deeper than 64 levels'],
  // biome-ignore lint/suspicious/noSparseArray: the hole is the bad value under test
  ['a sparse array', () => [1, , 3], 'has a hole at index 1'],
  ['a symbol key', () => ({ [Symbol('s')]: 1 }), 'has a symbol key'],
];

async function loaded() {
  const bed = testBed();
  const a = bed.driver('A');
  const profile = (await bed.clock.run(a.load('p1'))) as Profile<{
    coins: number;
    inventory?: unknown[];
  }>;
  profile.data.coins = 1;
  await bed.clock.run(profile.save());
  const before = bed.store.peekJson('PlayerData/p1');
  return { bed, a, profile, before };
}

describe('data that cannot round-trip as JSON', () => {
  it.each(BAD)(
    'a save of %s fails with Data.InvalidData naming its path, writes nothing, and the profile stays active',
    async (_name, make, what) => {
      const { bed, profile, before } = await loaded();
      profile.data.inventory = [0, 1, 2, { createdAt: make() }];
      const error = await bed.clock.run(profile.save().catch((e: unknown) => e));
      expect(error).toMatchObject({ code: ErrorCode.InvalidData });
      expect((error as Error).message).toContain(`data.inventory[3].createdAt`);
      expect((error as Error).message).toContain(what);
      expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
      expect(profile.active).toBe(true);
      expect(bed.log.warnings().at(-1)).toContain('data.inventory[3].createdAt');
      profile.data.inventory = [0, 1, 2, { createdAt: 'fixed' }];
      await bed.clock.run(profile.release());
      expect(bed.store.peek('PlayerData/p1')).toMatchObject({
        data: { coins: 1, inventory: [0, 1, 2, { createdAt: 'fixed' }] },
        meta: { releasedToken: profile.lockToken },
      });
    },
  );

  it('a release of bad data rejects, writes nothing, keeps the profile active; fixed, it releases', async () => {
    const { bed, profile, before } = await loaded();
    profile.data.inventory = [new Date(0)];
    await expect(bed.clock.run(profile.release())).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      message: expect.stringContaining('data.inventory[0] is a Date'),
    });
    expect(profile.active).toBe(true);
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    profile.data.inventory = ['1970-01-01'];
    await bed.clock.run(profile.release());
    expect(profile.active).toBe(false);
    expect(bed.store.peek('PlayerData/p1')?.meta).toMatchObject({
      releasedToken: profile.lockToken,
    });
  });

  it('an autosave of bad data writes nothing and warns with the path each time', async () => {
    const { bed, profile, before } = await loaded();
    profile.data.inventory = [10n];
    await bed.clock.advance(30_000);
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(
      bed.log.warnings().filter((line) => line.includes('data.inventory[0] is a BigInt')),
    ).toHaveLength(1);
    expect(profile.active).toBe(true);
  });

  it('a trade of bad data fails with Data.InvalidData before any write', async () => {
    const { bed, a, profile, before } = await loaded();
    const bob = await bed.clock.run(a.load('bob'));
    const bobBefore = bed.store.peekJson('PlayerData/bob');
    profile.data.inventory = [new Map()];
    await expect(bed.clock.run(a.trade(profile, bob, () => undefined))).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      message: expect.stringContaining('data.inventory[0] is a Map'),
    });
    expect(bed.store.keys().filter((key) => key.includes('#trade/'))).toEqual([]);
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(bed.store.peekJson('PlayerData/bob')).toBe(bobBefore);
  });

  it('a trade function that puts bad data in a copy fails with Data.InvalidData before any write', async () => {
    const { bed, a, profile, before } = await loaded();
    const bob = await bed.clock.run(a.load('bob'));
    const trade = a.trade(profile, bob, (_x, y) => {
      (y as unknown as { at: Date }).at = new Date();
    });
    await expect(bed.clock.run(trade)).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      message: expect.stringContaining('the data of bob cannot be saved: data.at is a Date'),
    });
    expect(bed.store.keys().filter((key) => key.includes('#trade/'))).toEqual([]);
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
    expect(bob.data).toEqual({ coins: 0 });
  });

  it('a leave save of bad data retains the profile under its lock and warns with the path; fixed, the retry releases it', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    const host = new MemoryHost('A');
    let kept: Profile<{ coins: number; at?: unknown }> | undefined;
    a.attach(host, {
      onLeave: (profile) => {
        kept = profile;
        (profile.data as { at?: unknown }).at = new Date(0);
      },
    });
    host.join('p1');
    await bed.clock.advance(0);
    host.leave('p1');
    await bed.clock.advance(0);
    expect(bed.log.warnings()).toContainEqual(
      expect.stringMatching(
        /^release of p1 failed; the profile is retained and retried: .*data\.at is a Date/,
      ),
    );
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('A');
    (kept!.data as { at?: unknown }).at = 'fixed';
    await bed.clock.advance(30_000); // the autosave retries the release
    expect(bed.store.peek('PlayerData/p1')).toMatchObject({ data: { coins: 0, at: 'fixed' } });
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });

  it('defaults that cannot be saved are refused at construction with Data.InvalidConfig', () => {
    expect(
      () =>
        new DataDriver({ name: 'P', defaults: { since: new Date(0) }, store: new MemoryStore() }),
    ).toThrow(
      expect.objectContaining({
        code: ErrorCode.InvalidConfig,
        message: expect.stringContaining('defaults.since is a Date'),
      }),
    );
  });
});

describe('findJsonProblem', () => {
  it.each<[unknown, string | undefined]>([
    [{ a: 1, b: 'x', c: null, d: true, e: [1, { f: -0 }] }, undefined],
    [Object.create(null), undefined],
    [JSON.parse('{"__proto__":{"x":1}}'), undefined],
    [{ 'my key': { x: undefined } }, 'data["my key"].x is undefined'],
    [{ list: [[], [new Set()]] }, 'data.list[1][0] is a Set'],
    [
      Object.defineProperty({}, 'hidden', { value: 1 }),
      'data has a non-enumerable property hidden',
    ],
    [
      {
        get coins() {
          return 1;
        },
      },
      'data has a getter or setter coins',
    ],
    [Object.assign([1], { extra: 2 }), 'data has properties besides its elements'],
    [{ items: Object.assign([], { 0: 1, 2: 3, length: 3 }) }, 'data.items has a hole at index 1'],
    [
      JSON.parse('{"__proto__":{"bad":1}}', (k, v) => (k === 'bad' ? Number.NaN : v)),
      'data.__proto__.bad is NaN',
    ],
    [{ a: { b: [{ c: new Map() }] } }, 'data.a.b[0].c is a Map'],
  ])('%j: %s', (value, expected) => {
    const found = findJsonProblem(value, 'data');
    expect(found && `${found.path} ${found.problem}`).toBe(expected);
  });

  it('names a cycle by the path where it closes, and lets a shared branch that is no cycle pass', () => {
    const ring: Record<string, unknown> = { name: 'ring' };
    ring.next = { back: ring };
    const shared = { x: 1 };
    const problem = (value: unknown) => {
      const found = findJsonProblem(value, 'data');
      return found && `${found.path} ${found.problem}`;
    };
    expect(problem({ ring })).toBe('data.ring.next.back is circular (it contains itself)');
    expect(problem({ a: shared, b: [shared, shared] })).toBeUndefined();
  });

  it('names the first level past the depth limit, and passes data at the limit', () => {
    const nested = (levels: number) => {
      let value: unknown = 1;
      for (let level = 0; level < levels; level += 1) value = { a: value };
      return value;
    };
    const deep = findJsonProblem(nested(4), 'data', 3);
    expect(deep && `${deep.path} ${deep.problem}`).toBe(
      'data.a.a.a is nested deeper than 3 levels',
    );
    expect(findJsonProblem(nested(3), 'data', 3)).toBeUndefined();
  });
});
