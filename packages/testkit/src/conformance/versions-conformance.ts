/**
 * The optional history of a Store (`store.versions`): what `restoreAt`, `versions` and `erase`
 * rely on. Run by `storeConformance` when the harness's stores keep versions.
 */
import { ErrorCode, type Store } from '@datadriver/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreHarness } from './store-harness.js';

export function versionsConformance(
  harness: () => StoreHarness,
  key: (name: string) => string,
  keep: number,
): void {
  describe('versions', () => {
    let store: Store;
    beforeAll(async () => {
      store = await harness().connect();
    });
    const history = () => {
      const versions = store.versions;
      if (!versions) throw new Error('the harness declared versions, but its store has none');
      return versions;
    };

    it('keeps a version of a write that asks for one, and none otherwise', async () => {
      const target = key('v-keep');
      const before = Date.now();
      await store.update(target, () => ({ n: 1 }), { keepVersion: true });
      await store.update(target, () => ({ n: 2 }));
      const after = Date.now();
      const versions = await history().list(target);
      expect(versions).toHaveLength(1);
      // The store's clock may differ a little from this process's.
      expect(versions[0]!.time).toBeGreaterThanOrEqual(before - 5_000);
      expect(versions[0]!.time).toBeLessThanOrEqual(after + 5_000);
      expect(await history().read(target, versions[0]!.id)).toEqual({ n: 1 });
    });

    it('lists newest first, filtered by time and limited', async () => {
      const target = key('v-list');
      for (const n of [1, 2, 3]) {
        await store.update(target, () => ({ n }), { keepVersion: true });
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      const versions = await history().list(target);
      const records = await Promise.all(
        versions.map((version) => history().read(target, version.id)),
      );
      expect(records).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
      expect(versions[0]!.time).toBeGreaterThanOrEqual(versions[1]!.time);
      expect(await history().list(target, { limit: 1 })).toEqual([versions[0]]);
      expect(await history().list(target, { before: versions[1]!.time, limit: 1 })).toEqual([
        versions[1],
      ]);
      expect(await history().list(target, { after: versions[0]!.time })).toContainEqual(
        versions[0],
      );
    });

    it('refuses a NaN bound or a negative or fractional limit with Data.InvalidArgument', async () => {
      const target = key('v-invalid');
      await store.update(target, () => ({ n: 1 }), { keepVersion: true });
      for (const query of [
        { before: Number.NaN },
        { after: Number.NaN },
        { limit: -1 },
        { limit: 1.5 },
      ]) {
        await expect(history().list(target, query)).rejects.toMatchObject({
          code: ErrorCode.InvalidArgument,
        });
      }
      // Valid edges: a limit of 0 lists none, an infinite bound is open.
      expect(await history().list(target, { limit: 0 })).toEqual([]);
      expect(await history().list(target, { before: Number.POSITIVE_INFINITY })).toHaveLength(1);
    });

    it(`keeps at most the ${keep} newest versions`, async () => {
      const target = key('v-retention');
      for (let n = 1; n <= keep + 2; n += 1)
        await store.update(target, () => ({ n }), { keepVersion: true });
      const versions = await history().list(target);
      expect(versions).toHaveLength(keep);
      expect(await history().read(target, versions[0]!.id)).toEqual({ n: keep + 2 });
    });

    it('keeps exactly one version per committed write under concurrent updates', async () => {
      const target = key('v-concurrent');
      const others = await Promise.all([harness().connect(), harness().connect()]);
      await store.update(target, () => ({ n: 0 }));
      const writes = Math.min(keep, 6);
      await Promise.all(
        Array.from({ length: writes }, (_, index) =>
          others[index % 2]!.update(target, (current) => ({ n: (current?.n as number) + 1 }), {
            keepVersion: true,
          }),
        ),
      );
      const versions = await history().list(target);
      const values = await Promise.all(
        versions.map(async (version) => (await history().read(target, version.id))?.n),
      );
      expect([...values].sort()).toEqual(Array.from({ length: writes }, (_, index) => index + 1));
    });

    it('a write given a stale snapshot runs again on the record carried back and keeps one version, of what landed', async () => {
      const target = key('v-stale');
      const other = await harness().connect();
      const stale = await store.update(target, () => ({ n: 1, by: 'me' }), { keepVersion: true });
      await other.update(target, () => ({ n: 2, by: 'other' }), { keepVersion: true });
      const seen: unknown[] = [];
      const result = await store.update(
        target,
        (current) => {
          seen.push(current);
          return current?.by === 'other' ? { n: (current.n as number) + 1, by: 'me' } : undefined;
        },
        { expected: stale!, keepVersion: true },
      );
      expect(seen.at(-1)).toEqual({ n: 2, by: 'other' });
      expect(result?.record).toEqual({ n: 3, by: 'me' });
      expect(await harness().read(target)).toEqual({ n: 3, by: 'me' });
      const values = await Promise.all(
        (await history().list(target)).map(async (version) => history().read(target, version.id)),
      );
      expect(values).toEqual([
        { n: 3, by: 'me' },
        { n: 2, by: 'other' },
        { n: 1, by: 'me' },
      ]);
    });

    it('keeps versions after a delete, and purge removes them all', async () => {
      const target = key('v-purge');
      await store.update(target, () => ({ n: 1 }), { keepVersion: true });
      await store.update(target, () => null);
      expect(await history().list(target)).toHaveLength(1);
      await history().purge(target);
      expect(await history().list(target)).toEqual([]);
      expect(await harness().read(target)).toBeUndefined();
    });
  });
}
