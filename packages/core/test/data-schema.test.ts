/**
 * The driver's `schema` (issue 19, part 3): checked after defaults and migrations on load (a
 * record that fails is refused with Data.InvalidData naming the paths, left byte for byte
 * untouched, the player kicked with the load-failed message) and before each save and the
 * release (nothing written; the profile stays active). Run with zod, valibot and arktype.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DataDriver,
  type DataDriverError,
  type DataSchema,
  ErrorCode,
  type Migration,
} from '../src/index.js';
import { isWellFormed } from '../src/ports.js';
import { MemoryHost, MemoryStore, VirtualClock } from '../src/testing.js';
import { testBed } from './helpers.js';

interface Player {
  coins: number;
  name: string;
  items: Array<{ id: string; count: number }>;
}

const SCHEMAS: ReadonlyArray<readonly [string, DataSchema<Player>]> = [
  [
    'zod',
    z.object({
      coins: z.number().int().nonnegative(),
      name: z.string(),
      items: z.array(z.object({ id: z.string(), count: z.number() })),
    }),
  ],
  [
    'valibot',
    v.object({
      coins: v.pipe(v.number(), v.integer(), v.minValue(0)),
      name: v.string(),
      items: v.array(v.object({ id: v.string(), count: v.number() })),
    }),
  ],
  [
    'arktype',
    type({
      coins: 'number.integer >= 0',
      name: 'string',
      items: type({ id: 'string', count: 'number' }).array(),
    }),
  ],
];

const DEFAULTS: Player = { coins: 0, name: 'new player', items: [] };
const KEY = 'PlayerData/p1';
/** A value only player data holds: no message may quote it. */
const SECRET = 'SECRET-VALUE-42';

function bedWith(schema: DataSchema<Player>, extra: { migrations?: Migration[] } = {}) {
  const bed = testBed();
  const driver = (jobId: string) => {
    const made = new DataDriver({
      name: 'PlayerData',
      schema,
      defaults: DEFAULTS,
      store: bed.store,
      scheduler: bed.clock,
      logger: bed.log.logger,
      jobId,
      ...extra,
    });
    made.on((event) => bed.events.push(event));
    return made;
  };
  return { ...bed, driver };
}

async function failure(promise: Promise<unknown>): Promise<DataDriverError> {
  const settled = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (settled === undefined) throw new Error('expected a rejection');
  return settled as DataDriverError;
}

describe.each(SCHEMAS)('a %s schema on load', (library, schema) => {
  it('loads a record that matches, with the data as stored', async () => {
    const bed = bedWith(schema);
    bed.store.put(KEY, { data: { ...DEFAULTS, coins: 7 }, meta: { version: 3 } });
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    expect(profile.data).toEqual({ ...DEFAULTS, coins: 7 });
    expect(bed.store.peek(KEY)).toMatchObject({ meta: { lock: { jobId: 'A' } } });
  });

  it('refuses a record that fails with Data.InvalidData naming the paths, never the values, and leaves its bytes untouched', async () => {
    const bed = bedWith(schema);
    const json = JSON.stringify({
      data: { coins: SECRET, name: 'x', items: [{ id: 'a', count: 1 }, { id: 7 }] },
      meta: { version: 3 },
    });
    bed.store.putJson(KEY, json);
    const driver = bed.driver('A');
    const error = await failure(bed.clock.run(driver.load('p1')));
    expect(error.code).toBe(ErrorCode.InvalidData);
    expect(error.message).toContain('data.coins');
    expect(error.message).toContain('data.items[1].id');
    expect(error.message).toContain('data.items[1].count');
    expect(error.message).toContain('the record was left untouched');
    expect(error.message).not.toContain(SECRET);
    // The paths in the schema's own order: arktype reports a missing key before a wrong type.
    const item =
      library === 'arktype'
        ? ['data.items[1].count', 'data.items[1].id']
        : ['data.items[1].id', 'data.items[1].count'];
    expect(error.details).toEqual({ key: 'p1', paths: ['data.coins', ...item] });
    expect(bed.store.peekJson(KEY)).toBe(json);
    expect(driver.profile('p1')).toBeUndefined();
    expect(bed.events.filter((e) => e.type === 'load.failed')).toMatchObject([
      { key: 'p1', error: { code: ErrorCode.InvalidData } },
    ]);
    expect(bed.log.lines.map((line) => line.message).join('\n')).not.toContain(SECRET);
  });

  it('checks the data after defaults: a key missing from an old record is filled, then it passes', async () => {
    const bed = bedWith(schema);
    bed.store.put(KEY, { data: { coins: 5, name: 'old' }, meta: { version: 1 } });
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    expect(profile.data).toEqual({ coins: 5, name: 'old', items: [] });
  });

  it('checks the data after migrations: an old record the migration fixes loads, one it breaks is refused untouched', async () => {
    const fix: Migration = {
      version: 1,
      migrate: ({ gold, ...data }) => ({ ...data, coins: Number(gold) }),
    };
    const fixed = bedWith(schema, { migrations: [fix] });
    fixed.store.put(KEY, { data: { gold: '12', name: 'n', items: [] }, meta: { version: 1 } });
    const profile = await fixed.clock.run(fixed.driver('A').load('p1'));
    expect(profile.data).toEqual({ coins: 12, name: 'n', items: [] });
    expect(fixed.store.peek(KEY)).toMatchObject({ meta: { schema: 1 } });

    const broken = bedWith(schema, { migrations: [fix] });
    const json = JSON.stringify({
      data: { gold: '-3', name: 'n', items: [] },
      meta: { version: 1 },
    });
    broken.store.putJson(KEY, json);
    const error = await failure(broken.clock.run(broken.driver('A').load('p1')));
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    expect(broken.store.peekJson(KEY)).toBe(json);
  });

  it('kicks an attached player with the load-failed message and writes nothing', async () => {
    const bed = bedWith(schema);
    const json = JSON.stringify({ data: { ...DEFAULTS, coins: -1 }, meta: { version: 2 } });
    bed.store.putJson(KEY, json);
    const driver = bed.driver('A');
    const host = new MemoryHost('A');
    driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([
      { player: 'p1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    expect(bed.store.peekJson(KEY)).toBe(json);
    expect(driver.profile('p1')).toBeUndefined();
  });

  it('never rewrites the data: what the schema would strip or change is kept as stored', async () => {
    const bed = bedWith(schema);
    bed.store.put(KEY, { data: { ...DEFAULTS, extra: { kept: true } }, meta: { version: 1 } });
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    expect(profile.data).toEqual({ ...DEFAULTS, extra: { kept: true } });
    await bed.clock.run(profile.save());
    expect(bed.store.peek(KEY)).toMatchObject({ data: { extra: { kept: true } } });
  });
});

describe.each(SCHEMAS)('a %s schema on save and release', (_library, schema) => {
  async function loaded() {
    const bed = bedWith(schema);
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    profile.data.coins = 3;
    await bed.clock.run(profile.save());
    return { bed, profile, before: bed.store.peekJson(KEY) };
  }

  it('refuses a save that fails: Data.InvalidData naming the paths, nothing written, the profile active, the next valid save lands', async () => {
    const { bed, profile, before } = await loaded();
    (profile.data as { coins: unknown }).coins = SECRET;
    profile.data.items.push({ id: 'sword', count: 'two' as never });
    const error = await failure(bed.clock.run(profile.save()));
    expect(error.code).toBe(ErrorCode.InvalidData);
    expect(error.details).toEqual({ key: 'p1', paths: ['data.coins', 'data.items[0].count'] });
    expect(error.message).toContain('nothing was written');
    expect(error.message).not.toContain(SECRET);
    expect(bed.store.peekJson(KEY)).toBe(before);
    expect(profile.active).toBe(true);
    expect(bed.events.filter((e) => e.type === 'profile.save-failed')).toMatchObject([
      { key: 'p1', error: { code: ErrorCode.InvalidData } },
    ]);
    profile.data.coins = 4;
    profile.data.items[0]!.count = 2;
    await bed.clock.run(profile.save());
    expect(bed.store.peek(KEY)).toMatchObject({
      data: { coins: 4, items: [{ id: 'sword', count: 2 }] },
    });
  });

  it('refuses an autosave that fails the same way, and the profile keeps its lock', async () => {
    const { bed, profile, before } = await loaded();
    profile.data.name = 42 as never;
    await bed.clock.advance(30_000);
    expect(bed.events.filter((e) => e.type === 'profile.save-failed')).toMatchObject([
      { key: 'p1', reason: 'autosave', error: { code: ErrorCode.InvalidData } },
    ]);
    expect(bed.store.peekJson(KEY)).toBe(before);
    expect(profile.active).toBe(true);
  });

  it('refuses a release that fails: nothing written, the profile active; fixed, it releases', async () => {
    const { bed, profile, before } = await loaded();
    profile.data.coins = -5;
    const error = await failure(bed.clock.run(profile.release()));
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    expect(bed.store.peekJson(KEY)).toBe(before);
    expect(profile.active).toBe(true);
    profile.data.coins = 5;
    await bed.clock.run(profile.release());
    expect(bed.store.peek(KEY)).toMatchObject({
      data: { coins: 5 },
      meta: { releasedToken: profile.lockToken },
    });
  });
});

describe('a schema on the leave save', () => {
  it('a leave save that fails retains the profile under its lock and warns with the path; fixed, the retry releases it', async () => {
    const bed = testBed();
    const a = bed.driver('A', { schema: z.object({ coins: z.number().nonnegative() }) });
    const host = new MemoryHost('A');
    let kept: { data: { coins: number } } | undefined;
    a.attach(host, {
      onLeave: (profile) => {
        kept = profile;
        profile.data.coins = -1;
      },
    });
    host.join('p1');
    await bed.clock.advance(0);
    const before = bed.store.peekJson(KEY);
    host.leave('p1');
    await bed.clock.advance(0);
    expect(bed.log.warnings()).toContainEqual(
      expect.stringMatching(
        /^release of p1 failed; the profile is retained and retried: .*does not match the schema at data\.coins/,
      ),
    );
    expect(bed.store.peekJson(KEY)).toBe(before);
    kept!.data.coins = 1;
    await bed.clock.advance(30_000); // the autosave retries the release
    expect(bed.store.peek(KEY)).toMatchObject({ data: { coins: 1 } });
    expect((bed.store.peek(KEY) as { meta: { lock?: unknown } }).meta.lock).toBeUndefined();
  });
});

describe('asynchronous schemas', () => {
  const asyncSchemas: ReadonlyArray<readonly [string, DataSchema<Player>]> = [
    [
      'zod',
      z.object({
        coins: z.number().refine(async (coins) => coins >= 0),
        name: z.string(),
        items: z.array(z.object({ id: z.string(), count: z.number() })),
      }),
    ],
    [
      'valibot',
      v.objectAsync({
        coins: v.pipeAsync(
          v.number(),
          v.checkAsync(async (coins) => coins >= 0),
        ),
        name: v.string(),
        items: v.array(v.object({ id: v.string(), count: v.number() })),
      }),
    ],
  ];

  it.each(asyncSchemas)(
    '%s: a record that fails is refused untouched; one that passes loads',
    async (_l, schema) => {
      const bed = bedWith(schema);
      const json = JSON.stringify({ data: { ...DEFAULTS, coins: -1 }, meta: { version: 1 } });
      bed.store.putJson(KEY, json);
      const driver = bed.driver('A');
      const error = await failure(bed.clock.run(driver.load('p1')));
      expect(error.code).toBe(ErrorCode.InvalidData);
      expect(bed.store.peekJson(KEY)).toBe(json);
      bed.store.put(KEY, { data: { ...DEFAULTS, coins: 1 }, meta: { version: 1 } });
      const profile = await bed.clock.run(driver.load('p1'));
      expect(profile.data.coins).toBe(1);
    },
  );

  it.each(asyncSchemas)(
    '%s: a save that fails writes nothing; the next valid one lands',
    async (_l, schema) => {
      const bed = bedWith(schema);
      const profile = await bed.clock.run(bed.driver('A').load('p1'));
      const before = bed.store.peekJson(KEY);
      profile.data.coins = -2;
      await expect(bed.clock.run(profile.save())).rejects.toMatchObject({
        code: ErrorCode.InvalidData,
      });
      expect(bed.store.peekJson(KEY)).toBe(before);
      profile.data.coins = 2;
      await bed.clock.run(profile.save());
      expect(bed.store.peek(KEY)).toMatchObject({ data: { coins: 2 } });
    },
  );

  it('a verdict counts only for the data it checked: a record changed while it was awaited is checked again', async () => {
    const bed = testBed();
    const seen: unknown[] = [];
    const schema: DataSchema<{ coins: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) => {
          seen.push(structuredClone(value));
          // Another program rewrites the record while the first verdict is awaited.
          if ((value as { coins: number }).coins === 1)
            bed.store.put(KEY, { data: { coins: -1 }, meta: { version: 9 } });
          const coins = (value as { coins: number }).coins;
          return coins >= 0
            ? { value: value as { coins: number } }
            : { issues: [{ message: 'no', path: ['coins'] }] };
        },
      },
    };
    bed.store.put(KEY, { data: { coins: 1 }, meta: { version: 1 } });
    const json = () => bed.store.peekJson(KEY);
    const error = await failure(bed.clock.run(bed.driver('A', { schema }).load('p1')));
    // The defaults at construction, the record as first read, then as rewritten.
    expect(seen).toEqual([{ coins: 0 }, { coins: 1 }, { coins: -1 }]);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    expect(json()).toBe(JSON.stringify({ data: { coins: -1 }, meta: { version: 9 } }));
  });
});

describe('schema refusals', () => {
  it('names at most 8 paths and counts the rest', async () => {
    const bed = testBed();
    const schema = z.object({ coins: z.number(), list: z.array(z.number()) });
    bed.store.put(KEY, {
      data: { coins: 0, list: Array.from({ length: 20 }, (_, i) => `n${i}`) },
      meta: { version: 1 },
    });
    const driver = new DataDriver({
      name: 'PlayerData',
      schema,
      defaults: { coins: 0, list: [] },
      store: bed.store,
      scheduler: bed.clock,
      logger: bed.log.logger,
    });
    const error = await failure(bed.clock.run(driver.load('p1')));
    expect(error.message).toContain('data.list[7] and 12 more;');
    expect(error.message).not.toContain('data.list[8]');
    expect((error.details.paths as string[]).length).toBe(20);
  });

  it('names hostile keys safely: a lone surrogate escaped, a huge key cut at 200 characters, __proto__ beside them', async () => {
    const bed = testBed();
    const schema = z.object({ coins: z.number(), bag: z.record(z.string(), z.number()) });
    const huge = 'k'.repeat(5000);
    const json = `{"data":{"coins":0,"bag":{"__proto__":"x","\\ud800":"y","${huge}":"z"}},"meta":{"version":1}}`;
    bed.store.putJson(KEY, json);
    const driver = new DataDriver({
      name: 'PlayerData',
      schema,
      defaults: { coins: 0, bag: {} },
      store: bed.store,
      scheduler: bed.clock,
      logger: bed.log.logger,
    });
    const error = await failure(bed.clock.run(driver.load('p1')));
    expect(error.code).toBe(ErrorCode.InvalidData);
    const paths = error.details.paths as string[];
    expect(paths).toHaveLength(2); // zod's record skips __proto__; the key stays as stored
    expect(paths).toContain('data.bag["\\ud800"]');
    expect(paths.every((path) => path.length <= 201)).toBe(true);
    expect(isWellFormed(error.message)).toBe(true);
    expect(bed.store.peekJson(KEY)).toBe(json);
  });

  it('a schema that throws refuses the load with Data.InvalidData, its message kept out, the record untouched', async () => {
    const bed = testBed();
    const schema: DataSchema<{ coins: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => {
          if ((value as { coins: number }).coins === 0) return { value: { coins: 0 } };
          throw new Error(`cannot read ${SECRET}`);
        },
      },
    };
    const json = JSON.stringify({ data: { coins: 1 }, meta: { version: 1 } });
    bed.store.putJson(KEY, json);
    const error = await failure(bed.clock.run(bed.driver('A', { schema }).load('p1')));
    expect(error.code).toBe(ErrorCode.InvalidData);
    expect(error.message).not.toContain(SECRET);
    expect((error.cause as Error).message).toContain(SECRET);
    expect(bed.store.peekJson(KEY)).toBe(json);
  });

  it('refuses a schema option that is not a Standard Schema, and defaults a schema refuses', () => {
    const store = new MemoryStore();
    const make =
      (schema: unknown, defaults: object = { coins: 0 }) =>
      () =>
        new DataDriver({ name: 'PlayerData', defaults, store, schema } as never);
    expect(make({ parse: () => 1 })).toThrow(
      expect.objectContaining({
        code: ErrorCode.InvalidConfig,
        message: expect.stringContaining('schema must implement Standard Schema v1'),
      }),
    );
    expect(make(z.object({ coins: z.string() }))).toThrow(
      expect.objectContaining({
        code: ErrorCode.InvalidConfig,
        message: expect.stringContaining('defaults do not match the schema at data.coins'),
      }),
    );
    expect(make(v.object({ coins: v.number() }))).not.toThrow();
  });
});

describe('a schema on trades and restores', () => {
  const coinsSchema = z.object({ coins: z.number().nonnegative() });

  it('refuses a trade whose result fails: Data.InvalidData, neither profile changed, no journal written', async () => {
    const bed = testBed();
    const a = bed.driver('A', { schema: coinsSchema });
    const alice = await bed.clock.run(a.load('alice'));
    const bob = await bed.clock.run(a.load('bob'));
    const before = bed.store.keys().map((key) => [key, bed.store.peekJson(key)]);
    const error = await failure(
      bed.clock.run(
        a.trade(alice, bob, (x, y) => {
          x.coins -= 5;
          y.coins += 5;
        }),
      ),
    );
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { key: 'alice', paths: ['data.coins'] },
    });
    expect([alice.data, bob.data]).toEqual([{ coins: 0 }, { coins: 0 }]);
    expect(bed.store.keys().map((key) => [key, bed.store.peekJson(key)])).toEqual(before);
    expect(bed.events.filter((e) => e.type === 'trade.aborted')).toHaveLength(1);
  });

  it('refuses to restore a version that fails: the current data kept, the lock given back', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore({ versions: { keep: 10 }, clock });
    const make = (jobId: string, schema?: DataSchema<{ coins: number }>) =>
      new DataDriver<{ coins: number }>({
        name: 'PlayerData',
        defaults: { coins: 0 },
        store,
        scheduler: clock,
        jobId,
        ...(schema ? { schema } : {}),
      });
    const old = make('A');
    const profile = await clock.run(old.load('p1'));
    await clock.advance(60_000);
    profile.data.coins = -1; // written before the schema came in
    await clock.run(profile.save());
    const badAt = clock.now();
    await clock.advance(60_000);
    profile.data.coins = 8;
    await clock.run(profile.save());
    await clock.run(profile.release());
    const current = store.peekJson(KEY);
    const checked = make('B', coinsSchema);
    const error = await failure(clock.run(checked.restoreAt('p1', badAt + 1)));
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.coins'] },
    });
    const after = JSON.parse(store.peekJson(KEY) ?? '');
    expect(after.data).toEqual(JSON.parse(current ?? '').data);
    expect(after.meta.lock).toBeUndefined();
    expect(after.meta.releasedToken).toBeDefined();
    expect(checked.profile('p1')).toBeUndefined();
  });
});
