import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, type Migration } from '../src/index.js';
import { toStoreRecord } from '../src/rules.js';
import { FaultyStore, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, stored } from './helpers.js';

function versioned(retention = { keep: 10 }) {
  const clock = new VirtualClock();
  const store = new MemoryStore({ versions: retention, clock });
  const log = recordingLogger();
  const connections = new Map<string, FaultyStore>();
  const driver = (jobId: string, migrations?: readonly Migration[]) => {
    const connection = new FaultyStore(store, { scheduler: clock });
    connections.set(jobId, connection);
    return new DataDriver<{ coins: number }>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store: connection,
      scheduler: clock,
      logger: log.logger,
      jobId,
      ...(migrations ? { migrations } : {}),
    });
  };
  return { clock, store, driver, log, connections };
}

describe('versions', () => {
  it('keeps a version for each write that changed the data, newest first, within the retention', async () => {
    const { clock, driver } = versioned({ keep: 3 });
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    const times: number[] = [];
    for (const coins of [1, 2, 3, 4]) {
      await clock.advance(60_000);
      profile.data.coins = coins;
      await clock.run(profile.save());
      times.push(clock.now());
      await clock.run(profile.save()); // unchanged data: no new version
    }
    const versions = await a.versions('p1');
    expect(versions.map((version) => version.time)).toEqual([times[3], times[2], times[1]]);
    expect(await a.versions('p1', { before: times[2]!, limit: 1 })).toEqual([versions[1]]);
    expect(await a.versions('p1', { after: times[3]! })).toEqual([versions[0]]);
  });

  it('drops versions older than maxAgeSeconds', async () => {
    const { clock, driver } = versioned({ keep: 100, maxAgeSeconds: 120 } as { keep: number });
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    for (const coins of [1, 2, 3]) {
      await clock.advance(60_000);
      profile.data.coins = coins;
      await clock.run(profile.save());
    }
    await clock.advance(60_001);
    expect(await a.versions('p1')).toHaveLength(1);
  });

  it('refuses history calls on a store that keeps none', async () => {
    const clock = new VirtualClock();
    const a = new DataDriver({
      name: 'PlayerData',
      defaults: {},
      store: new MemoryStore(),
      scheduler: clock,
      jobId: 'A',
    });
    await expect(a.versions('p1')).rejects.toMatchObject({ code: ErrorCode.Misconfigured });
    await expect(a.restoreAt('p1', 0)).rejects.toMatchObject({ code: ErrorCode.Misconfigured });
  });
});

describe('restoreAt', () => {
  it('writes the version current at that time as the new record, keeping the history', async () => {
    const { clock, store, driver } = versioned();
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    const at: number[] = [];
    for (const coins of [10, 20, 30]) {
      await clock.advance(60_000);
      profile.data.coins = coins;
      await clock.run(profile.save());
      at.push(clock.now());
    }
    await clock.run(profile.release());
    const restored = await clock.run(a.restoreAt('p1', new Date(at[1]! + 30_000)));
    expect(restored.data).toEqual({ coins: 20 });
    expect(stored(store, 'p1')).toMatchObject({
      data: { coins: 20 },
      meta: { lock: { token: restored.lockToken } },
    });
    const versions = await a.versions('p1');
    expect(versions).toHaveLength(4); // three saves; the release changed no data; the restore
    expect(versions[0]?.time).toBe(clock.now());
  });

  it('refuses, touching nothing, when no version that old is retained', async () => {
    const { clock, store, driver } = versioned();
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    const before = clock.now();
    await clock.advance(1000);
    profile.data.coins = 5;
    await clock.run(profile.save());
    await clock.run(profile.release());
    const record = stored(store, 'p1');
    await expect(clock.run(a.restoreAt('p1', before))).rejects.toMatchObject({
      code: ErrorCode.VersionNotFound,
    });
    expect(stored(store, 'p1')).toEqual(record);
  });

  it("waits for another server's lock like a load does", async () => {
    const { clock, driver } = versioned();
    const a = driver('A');
    const b = driver('B');
    const held = await clock.run(a.load('p1'));
    held.data.coins = 1;
    await clock.run(held.save());
    const restoring = b.restoreAt('p1', clock.now()).catch((error: unknown) => error);
    expect(await clock.run(restoring)).toMatchObject({ code: ErrorCode.Locked });
  });
});

describe('restoreAt and erase with handoffSeconds', () => {
  /** p1 has a kept version, and A's next load of it is in flight (its write stalls). */
  async function loadingOnA() {
    const { clock, driver, connections } = versioned();
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    profile.data.coins = 4;
    await clock.run(profile.save());
    await clock.run(profile.release());
    connections.get('A')!.faults.inject({ kind: 'stall', operation: 'update' });
    void a.load('p1').catch(() => undefined);
    await clock.advance(0);
    return { clock, a, started: clock.now() };
  }

  it.each([
    [
      'restoreAt',
      (a: DataDriver<{ coins: number }>, at: number, options: object) =>
        a.restoreAt('p1', at, options),
    ],
    [
      'erase',
      (a: DataDriver<{ coins: number }>, _at: number, options: object): Promise<unknown> =>
        a.erase('p1', options),
    ],
  ] as const)(
    '%s waits handoffSeconds for a load of the key on this server, like load',
    async (_name, call) => {
      const { clock, a, started } = await loadingOnA();
      const waited = await clock.run(
        call(a, started, { handoffSeconds: 2 }).catch((error: unknown) => ({
          error,
          at: clock.now(),
        })),
      );
      expect(waited).toMatchObject({
        error: {
          code: ErrorCode.Locked,
          message:
            'Data.Locked: profile is locked by this server (key p1, server A, load in progress)',
        },
        at: started + 2_000,
      });
      const atOnce = await clock.run(
        call(a, clock.now(), {}).catch((error: unknown) => ({ error, at: clock.now() })),
      );
      expect(atOnce).toMatchObject({ error: { code: ErrorCode.Locked }, at: started + 2_000 });
    },
  );
});

describe('erase', () => {
  it('deletes the record and its versions; a later load starts from the defaults', async () => {
    const { clock, store, driver } = versioned();
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    profile.data.coins = 9;
    profile.addUserId('user-9');
    await clock.run(profile.save());
    await clock.run(profile.release());
    await clock.run(a.erase('p1'));
    expect(stored(store, 'p1')).toBeUndefined();
    expect(await a.versions('p1')).toEqual([]);
    const fresh = await clock.run(a.load('p1'));
    expect(fresh.data).toEqual({ coins: 0 });
    expect(fresh.userIds).toEqual([]);
  });

  it('leaves nothing a stale holder could bring back', async () => {
    const { clock, store, driver, connections } = versioned();
    const a = driver('A');
    const b = driver('B');
    const stale = await clock.run(a.load('p1'));
    stale.data.coins = 3;
    await clock.run(stale.save());
    // A stalls, so its lock ages out; B erases by age (A beats no presence).
    const stall = connections
      .get('A')!
      .faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    await clock.advance(241_000);
    await clock.run(b.erase('p1'));
    stall.remove(); // A's stuck autosaves now land: they must find the lock gone
    stale.data.coins = 4;
    await clock.advance(0);
    expect(stale.active).toBe(false);
    expect(stored(store, 'p1')).toBeUndefined();
  });
});

describe('user ids', () => {
  it('are kept in the record and come back with the next load', async () => {
    const { clock, store, driver } = versioned();
    const a = driver('A');
    const profile = await clock.run(a.load('p1'));
    profile.addUserId('u1');
    profile.addUserId('u2');
    profile.addUserId('u1');
    profile.removeUserId('u2');
    await clock.run(profile.release());
    expect(stored(store, 'p1')?.meta.userIds).toEqual(['u1']);
    expect((await clock.run(a.load('p1'))).userIds).toEqual(['u1']);
  });
});

describe('migrations', () => {
  const steps: Migration[] = [
    { version: 1, migrate: (data) => ({ coins: data.gold ?? 0 }) },
    { version: 2, migrate: (data) => ({ ...data, gems: 0 }) },
  ];

  it('brings an older record up to the newest schema as it loads', async () => {
    const { clock, store, driver } = versioned();
    store.put('PlayerData/p1', toStoreRecord({ data: { gold: 5 }, meta: { version: 4 } }));
    const profile = await clock.run(driver('A', steps).load('p1'));
    expect(profile.data).toEqual({ coins: 5, gems: 0 });
    expect(stored(store, 'p1')?.meta.schema).toBe(2);
  });

  it("applies only the steps newer than the record's schema, and stamps new records", async () => {
    const { clock, store, driver } = versioned();
    store.put(
      'PlayerData/p1',
      toStoreRecord({ data: { coins: 7 }, meta: { version: 4, schema: 1 } }),
    );
    const a = driver('A', steps);
    expect((await clock.run(a.load('p1'))).data).toEqual({ coins: 7, gems: 0 });
    await clock.run(a.load('p2'));
    expect(stored(store, 'p2')?.meta.schema).toBe(2);
  });

  it('refuses data from a newer schema and leaves it untouched', async () => {
    const { clock, store, driver } = versioned();
    const newer = toStoreRecord({
      data: { coins: 7, badge: 'x' },
      meta: { version: 9, schema: 3 },
    });
    store.put('PlayerData/p1', newer);
    await expect(clock.run(driver('A', steps).load('p1'))).rejects.toMatchObject({
      code: ErrorCode.NewerSchema,
    });
    await expect(clock.run(driver('B').load('p1'))).rejects.toMatchObject({
      code: ErrorCode.NewerSchema,
    });
    expect(store.peek('PlayerData/p1')).toEqual(newer);
  });

  it('refuses steps that are not in ascending order', () => {
    const { driver } = versioned();
    expect(() => driver('A', [steps[1]!, steps[0]!])).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });
});
