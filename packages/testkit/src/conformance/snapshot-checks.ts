/**
 * The store port's snapshots (v2): an update resolves with the snapshot it wrote, and a caller
 * may hand it back as `expected` to skip the read of its next write. Each check is a function,
 * so the suite runs it on a real backend and testkit's own tests run it on deliberately broken
 * stores, proving it catches them: one that writes over a moved version, one that trusts a
 * stale snapshot.
 */
import type { Store, StoreRecord, StoreSnapshot } from '@datadriver/core/ports';
import { expect } from 'vitest';

export interface SnapshotCheckContext {
  /** The store under test. */
  readonly store: Store;
  /** Another connection to the same backend: the concurrent writer. */
  readonly other: Store;
  /** The record as the backend holds it, read without the adapter. */
  read(key: string): Promise<StoreRecord | undefined>;
  /** A key of this check's own. */
  key(name: string): string;
}

export interface SnapshotCheck {
  readonly title: string;
  run(context: SnapshotCheckContext): Promise<void>;
}

/** The snapshot an update must resolve with, or a failed assertion. */
function written(snapshot: StoreSnapshot | undefined): StoreSnapshot {
  expect(snapshot, 'the update resolved without a snapshot').toBeDefined();
  expect(typeof snapshot?.version).toBe('string');
  expect(snapshot?.version.length).toBeGreaterThan(0);
  return snapshot as StoreSnapshot;
}

export const snapshotChecks: readonly SnapshotCheck[] = [
  {
    title:
      'resolves a write with its snapshot, whose version moves with every write, even of the same record',
    async run({ store, key }) {
      const target = key('snap-moves');
      const first = written(await store.update(target, () => ({ n: 1 })));
      expect(first.record).toEqual({ n: 1 });
      const second = written(await store.update(target, () => ({ n: 1 })));
      expect(second.version).not.toBe(first.version);
      const kept = written(await store.update(target, () => undefined));
      expect(kept).toEqual({ record: { n: 1 }, version: second.version });
    },
  },
  {
    title: 'a write given the current snapshot runs the transform on its record and lands',
    async run({ store, read, key }) {
      const target = key('snap-current');
      let snapshot = written(await store.update(target, () => ({ n: 1 })));
      for (const expected of [2, 3]) {
        const seen: Array<StoreRecord | undefined> = [];
        snapshot = written(
          await store.update(
            target,
            (current) => {
              seen.push(current);
              return { n: (current?.n as number) + 1 };
            },
            { expected: snapshot },
          ),
        );
        expect(seen).toEqual([{ n: expected - 1 }]);
        expect(snapshot.record).toEqual({ n: expected });
        expect(await read(target)).toEqual({ n: expected });
      }
    },
  },
  {
    title:
      'never writes over a moved version: a write given a stale snapshot runs again on the current record',
    async run({ store, other, read, key }) {
      const target = key('snap-stale');
      const stale = written(await store.update(target, () => ({ n: 1, writers: [] })));
      const theirs = written(await other.update(target, () => ({ n: 2, writers: ['other'] })));
      const seen: Array<StoreRecord | undefined> = [];
      const ours = written(
        await store.update(
          target,
          (current) => {
            seen.push(current);
            return {
              n: (current?.n as number) + 10,
              writers: [...((current?.writers as string[]) ?? []), 'me'],
            };
          },
          { expected: stale },
        ),
      );
      expect(await read(target)).toEqual({ n: 12, writers: ['other', 'me'] });
      expect(ours.record).toEqual({ n: 12, writers: ['other', 'me'] });
      expect(seen.at(-1)).toEqual({ n: 2, writers: ['other'] });
      expect(ours.version).not.toBe(stale.version);
      expect(ours.version).not.toBe(theirs.version);
    },
  },
  {
    title:
      'confirms a stale snapshot before writing nothing: the transform runs again on the current record',
    async run({ store, other, read, key }) {
      const target = key('snap-nothing');
      const stale = written(await store.update(target, () => ({ owner: 'me' })));
      await other.update(target, () => ({ owner: 'them' }));
      // Nothing to do while the record is ours; a note when it is someone else's.
      const result = written(
        await store.update(
          target,
          (current) =>
            current?.owner === 'me' ? undefined : { owner: current?.owner ?? null, noted: 1 },
          { expected: stale },
        ),
      );
      expect(await read(target)).toEqual({ owner: 'them', noted: 1 });
      expect(result.record).toEqual({ owner: 'them', noted: 1 });
    },
  },
  {
    title: 'a delete given a stale snapshot runs again on the current record and keeps it',
    async run({ store, other, read, key }) {
      const target = key('snap-delete');
      const stale = written(await store.update(target, () => ({ n: 1 })));
      await other.update(target, () => ({ n: 2 }));
      const result = await store.update(
        target,
        (current) => (current?.n === 1 ? null : undefined),
        {
          expected: stale,
        },
      );
      expect(await read(target)).toEqual({ n: 2 });
      expect(result?.record).toEqual({ n: 2 });
    },
  },
  {
    title:
      'a version never repeats on a key: a snapshot from before a delete matches no record written again',
    async run({ store, other, read, key }) {
      const target = key('snap-aba');
      const stale = written(await store.update(target, () => ({ n: 1 })));
      await other.update(target, () => null);
      await other.update(target, () => ({ n: 1 }));
      const seen: Array<StoreRecord | undefined> = [];
      await store.update(
        target,
        (current) => {
          seen.push(current);
          return { n: (current?.n as number) + 1 };
        },
        { expected: stale },
      );
      // The last run saw the record stored now, never the snapshot handed in.
      expect(seen.at(-1)).not.toBe(stale.record);
      expect(await read(target)).toEqual({ n: 2 });
    },
  },
  {
    title: 'never loses a write under concurrent updates that each pass their own last snapshot',
    async run({ store, other, read, key }) {
      const target = key('snap-concurrent');
      await store.update(target, () => ({ n: 0, writers: [] }));
      const perConnection = 10;
      const writer = async (connection: Store, name: string) => {
        let snapshot: StoreSnapshot | undefined;
        for (let index = 0; index < perConnection; index += 1) {
          snapshot = await connection.update(
            target,
            (current) => ({
              n: (current?.n as number) + 1,
              writers: [...((current?.writers as string[]) ?? []), `${name}${index}`],
            }),
            snapshot ? { expected: snapshot } : {},
          );
        }
      };
      await Promise.all([writer(store, 'a'), writer(other, 'b')]);
      const final = await read(target);
      expect(final?.n).toBe(2 * perConnection);
      expect(final?.writers).toHaveLength(2 * perConnection);
    },
  },
];
