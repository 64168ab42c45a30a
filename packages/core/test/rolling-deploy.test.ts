/**
 * Migrations across a rolling deploy: a step that declares itself `backwardsCompatible` lets a
 * server of the previous schema load data a newer server migrated, keep the fields it does not
 * know untouched, and write it back under the newer schema (never lowering it, so the newer
 * server does not migrate it twice). A step that does not is refused by older servers.
 */
import { describe, expect, it } from 'vitest';
import type { DataDriverError, Migration } from '../src/index.js';
import { DataDriver, ErrorCode } from '../src/index.js';
import { MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, stored, testBed } from './helpers.js';

type Old = { coins: number };
type New = { coins: number; gems: number };

function builds(compatible: boolean) {
  const bed = testBed();
  const v1: Migration = { version: 1, migrate: (data) => ({ ...data, coins: data.coins ?? 0 }) };
  const v2: Migration = {
    version: 2,
    migrate: (data) => ({ ...data, gems: 0 }), // run twice, it would reset the gems
    backwardsCompatible: compatible,
  };
  const older = bed.driver('old', { migrations: [v1] }) as unknown as ReturnType<typeof bed.driver>;
  const newer = bed.driver('new', {
    migrations: [v1, v2],
    defaults: { coins: 0, gems: 0 } as never,
  });
  return { bed, older, newer };
}

describe('an old and a new build on one store, a player hopping between them', () => {
  it('nothing lost either way: the old build keeps the gems it does not know, and the new one never migrates twice', async () => {
    const { bed, older, newer } = builds(true);
    const onOld = await bed.clock.run(older.load('p1'));
    onOld.data.coins = 10;
    await bed.clock.run(onOld.release());
    expect(stored(bed.store, 'p1')?.meta).toMatchObject({ schema: 1 });

    const onNew = await bed.clock.run(newer.load('p1'));
    expect(onNew.data).toEqual({ coins: 10, gems: 0 });
    (onNew.data as unknown as New).gems = 5;
    await bed.clock.run(onNew.release());
    expect(stored(bed.store, 'p1')?.meta).toMatchObject({ schema: 2, compatible: 1 });

    const backOnOld = await bed.clock.run(older.load('p1'));
    expect(backOnOld.data).toEqual({ coins: 10, gems: 5 });
    (backOnOld.data as Old).coins += 1;
    await bed.clock.run(backOnOld.save());
    expect(stored(bed.store, 'p1')?.meta).toMatchObject({ schema: 2, compatible: 1 });
    await bed.clock.run(backOnOld.release());
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 11, gems: 5 },
      meta: { schema: 2, compatible: 1 },
    });

    const again = await bed.clock.run(newer.load('p1'));
    expect(again.data).toEqual({ coins: 11, gems: 5 });
  });

  it('a step that is not backwards compatible: the old build refuses with Data.NewerSchema and leaves the record byte for byte', async () => {
    const { bed, older, newer } = builds(false);
    const onNew = await bed.clock.run(newer.load('p1'));
    await bed.clock.run(onNew.release());
    expect(stored(bed.store, 'p1')?.meta.compatible).toBeUndefined();
    const before = bed.store.peekJson('PlayerData/p1');
    const error = await bed.clock.run(older.load('p1').catch((failure: unknown) => failure));
    expect((error as DataDriverError).code).toBe(ErrorCode.NewerSchema);
    expect(bed.store.peekJson('PlayerData/p1')).toBe(before);
  });

  it('a view on the old build reads the newer data as it is', async () => {
    const { bed, older, newer } = builds(true);
    const onNew = await bed.clock.run(newer.load('p1'));
    (onNew.data as unknown as New).gems = 3;
    await bed.clock.run(onNew.release());
    expect((await bed.clock.run(older.view('p1')))?.data).toEqual({ coins: 0, gems: 3 });
  });

  it('the old build refuses to restore a record now at the newer schema: Data.NewerSchema, nothing restored', async () => {
    const clock = new VirtualClock();
    const store = new MemoryStore({ versions: { keep: 10 }, clock });
    const v1: Migration = { version: 1, migrate: (data) => data };
    const v2: Migration = {
      version: 2,
      migrate: (data) => ({ ...data, gems: 0 }),
      backwardsCompatible: true,
    };
    const driverOf = (jobId: string, migrations: Migration[]) =>
      new DataDriver<{ coins: number }>({
        name: 'PlayerData',
        defaults: { coins: 0 },
        store,
        scheduler: clock,
        logger: recordingLogger().logger,
        jobId,
        migrations,
      });
    const older = driverOf('old', [v1]);
    const newer = driverOf('new', [v1, v2]);
    const first = await clock.run(older.load('p1'));
    first.data.coins = 1;
    await clock.run(first.release());
    await clock.advance(60_000);
    const onNew = await clock.run(newer.load('p1'));
    await clock.run(onNew.release());
    const before = store.peekJson('PlayerData/p1');
    const error = await clock
      .run(older.restoreAt('p1', clock.now() - 30_000))
      .catch((failure: unknown) => failure);
    expect((error as DataDriverError).code).toBe(ErrorCode.NewerSchema);
    expect((error as DataDriverError).message).toContain('restore it from a server of schema 2');
    const after = JSON.parse(store.peekJson('PlayerData/p1') ?? '{}');
    expect(after.data).toEqual(JSON.parse(before ?? '{}').data);
    expect(after.meta).toMatchObject({ schema: 2, compatible: 1 });
    expect(after.meta.lock).toBeUndefined();
  });

  it('refuses a backwardsCompatible that is not a boolean: Data.InvalidConfig', () => {
    const bed = testBed();
    const wrong = { version: 1, migrate: (data: object) => data, backwardsCompatible: 'yes' };
    expect(() => bed.driver('A', { migrations: [wrong as unknown as Migration] })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });
});
