/**
 * What every Store adapter must do, checked against its real backend. `read` looks at the
 * backend directly (not through the adapter), so the suite checks what was stored, not just a
 * round trip through the adapter.
 */
import { DataDriverError, ErrorCode, type Store, type StoreRecord } from '@datadriver/core/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, expectTyped } from './outage.js';
import { storeScanConformance } from './scan-conformance.js';
import { snapshotChecks } from './snapshot-checks.js';
import type { StoreHarness } from './store-harness.js';
import { versionsConformance } from './versions-conformance.js';

export interface StoreConformanceOptions {
  /** Concurrent increments of one key (default 40). */
  readonly concurrentUpdates?: number;
  /** The harness's stores keep versions with this retention count: check the history too. */
  readonly versions?: { readonly keep: number };
  /** The adapter offers the optional `scan`: check it too. */
  readonly scan?: boolean;
  readonly timeoutMs?: number;
}

let suites = 0;

export function storeConformance(
  name: string,
  makeHarness: () => Promise<StoreHarness>,
  options: StoreConformanceOptions = {},
): void {
  describe(`Store conformance: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    suites += 1;
    const prefix = `conf${process.pid}x${suites}x${Date.now().toString(36)}`;
    const key = (name: string) => `${prefix}/${name}`;
    const timeout = options.timeoutMs ?? 30_000;

    beforeAll(async () => {
      harness = await makeHarness();
      store = await harness.connect();
    }, timeout);
    afterAll(async () => harness?.close(), timeout);

    it('declares port version v2', () => {
      expect(store.specificationVersion).toBe('v2');
    });

    it('reads a missing key as undefined', async () => {
      expect(await store.get(key('missing'))).toBeUndefined();
    });

    it("creates, returns and stores exactly the transform's record", async () => {
      const record = {
        data: { coins: 1, name: 'Zoë 🎮', nested: { list: [1, 'two', null, true] } },
        meta: { version: 1 },
      };
      const seen: Array<StoreRecord | undefined> = [];
      const result = await store.update(key('create'), (current) => {
        seen.push(current);
        return record;
      });
      expect(seen.at(-1)).toBeUndefined();
      expect(result?.record).toEqual(record);
      expect(await store.get(key('create'))).toEqual(record);
      expect(await harness.read(key('create'))).toEqual(record);
    });

    it('hands the transform the current record and writes its result', async () => {
      await store.update(key('next'), () => ({ n: 1 }));
      const result = await store.update(key('next'), (current) => ({
        n: (current?.n as number) + 1,
      }));
      expect(result?.record).toEqual({ n: 2 });
      expect(await harness.read(key('next'))).toEqual({ n: 2 });
    });

    it('writes nothing when the transform returns undefined, and resolves the current record', async () => {
      const written = await store.update(key('keep'), () => ({ n: 5 }));
      const result = await store.update(key('keep'), () => undefined);
      expect(result).toEqual({ record: { n: 5 }, version: written?.version });
      expect(await harness.read(key('keep'))).toEqual({ n: 5 });
      expect(await store.update(key('never'), () => undefined)).toBeUndefined();
      expect(await harness.read(key('never'))).toBeUndefined();
    });

    it('deletes the record when the transform returns null', async () => {
      await store.update(key('gone'), () => ({ n: 1 }));
      expect(await store.update(key('gone'), () => null)).toBeUndefined();
      expect(await harness.read(key('gone'))).toBeUndefined();
      expect(await store.get(key('gone'))).toBeUndefined();
    });

    it("rejects with the transform's error and writes nothing", async () => {
      await store.update(key('throws'), () => ({ n: 1 }));
      const failure = new Error('refused by the rules');
      await expect(
        store.update(key('throws'), () => {
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await harness.read(key('throws'))).toEqual({ n: 1 });
    });

    it('keeps keys apart, whatever characters they hold', async () => {
      const names = ['a/b', 'a#b', 'a:b', 'spaced key', 'ünïcødé', 'a'];
      await Promise.all(names.map((name, index) => store.update(key(name), () => ({ index }))));
      for (const [index, name] of names.entries()) {
        expect(await harness.read(key(name))).toEqual({ index });
      }
    });

    it('refuses a key that is not well-formed UTF-16 with a typed error, and writes nothing', async () => {
      // A client would send a lone surrogate as U+FFFD: the two keys would be one record.
      const lone = key('lone\uD800');
      const replacement = key('lone\uFFFD');
      const write = await store.update(lone, () => ({ n: 1 })).catch((error: unknown) => error);
      expect(DataDriverError.is(write, ErrorCode.InvalidArgument)).toBe(true);
      const read = await store.get(lone).catch((error: unknown) => error);
      expect(DataDriverError.is(read, ErrorCode.InvalidArgument)).toBe(true);
      expect(await harness.read(replacement)).toBeUndefined();
      expect(await harness.read(lone)).toBeUndefined();
    });

    it(
      'never loses a write under concurrent updates of one key from many connections',
      async () => {
        const count = options.concurrentUpdates ?? 40;
        const connections = await Promise.all(Array.from({ length: 4 }, () => harness.connect()));
        const target = key('counter');
        await store.update(target, () => ({ n: 0, writers: [] }));
        await Promise.all(
          Array.from({ length: count }, (_, index) =>
            connections[index % connections.length]!.update(target, (current) => ({
              n: (current?.n as number) + 1,
              writers: [...((current?.writers as number[]) ?? []), index],
            })),
          ),
        );
        const final = await harness.read(target);
        expect(final?.n).toBe(count);
        expect([...((final?.writers as number[]) ?? [])].sort((a, b) => a - b)).toEqual(
          Array.from({ length: count }, (_, index) => index),
        );
      },
      timeout,
    );

    it('re-runs the transform on a conflicting write instead of overwriting it', async () => {
      const target = key('conflict');
      await store.update(target, () => ({ n: 0 }));
      const other = await harness.connect();
      let runs = 0;
      let theirs: Promise<unknown> = Promise.resolve();
      await store.update(target, (current) => {
        runs += 1;
        // The first run races a write from another connection.
        if (runs === 1) theirs = other.update(target, () => ({ n: 100 }));
        return { n: (current?.n as number) + 1 };
      });
      await theirs;
      // Either ours ran after theirs (101) or theirs landed after ours (100); never 1 over 100.
      const final = (await harness.read(target))?.n;
      expect([100, 101]).toContain(final);
    });

    describe('snapshots', () => {
      for (const check of snapshotChecks) {
        it(
          check.title,
          async () => {
            const other = await harness.connect();
            await check.run({ store, other, read: (target) => harness.read(target), key });
          },
          timeout,
        );
      }
    });

    if (options.versions) versionsConformance(() => harness, key, options.versions.keep);
    if (options.scan) storeScanConformance(() => store, key);

    it(
      'fails with a typed error while the backend is down, and serves again once it is back',
      async () => {
        await harness.outage.stop();
        try {
          const read = await store.get(key('down')).catch((error: unknown) => error);
          expectTyped(read);
          const write = await store
            .update(key('down'), () => ({ n: 1 }))
            .catch((error: unknown) => error);
          expectTyped(write);
        } finally {
          await harness.outage.start();
        }
        await expect(
          eventually(() => store.update(key('down'), () => ({ n: 2 }))),
        ).resolves.toMatchObject({ record: { n: 2 } });
      },
      timeout,
    );
  });
}
