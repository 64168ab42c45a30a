/**
 * The store conformance suite's snapshot checks catch what they are for: run on two
 * deliberately broken stores, the checks written for each fail, and on the memory store every
 * check passes.
 */
import type {
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  UpdateOptions,
} from '@datadriver/core/ports';
import { MemoryStore } from '@datadriver/core/testing';
import { describe, expect, it } from 'vitest';
import { type SnapshotCheckContext, snapshotChecks } from '../src/conformance/index.js';

/** Wraps the memory store; `update` with a snapshot is the broken part. */
abstract class BrokenStore implements Store {
  readonly specificationVersion = 'v2';
  constructor(protected readonly inner: MemoryStore) {}
  get(key: string): Promise<StoreRecord | undefined> {
    return this.inner.get(key);
  }
  abstract update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined>;
}

/** Given a snapshot, writes the transform's result on it without comparing the version. */
class OverwritingStore extends BrokenStore {
  async update(key: string, transform: StoreTransform, options: UpdateOptions = {}) {
    const { expected } = options;
    if (!expected) return this.inner.update(key, transform, options);
    const next = transform(expected.record);
    return this.inner.update(key, () => next);
  }
}

/** Given a snapshot, takes a transform that writes nothing on it at its word: no check. */
class StaleTrustingStore extends BrokenStore {
  async update(key: string, transform: StoreTransform, options: UpdateOptions = {}) {
    const { expected } = options;
    if (expected && transform(expected.record) === undefined) return expected;
    return this.inner.update(key, transform, options);
  }
}

let keys = 0;
function context(make: (inner: MemoryStore) => Store): SnapshotCheckContext {
  const inner = new MemoryStore();
  keys += 1;
  return {
    store: make(inner),
    other: inner,
    read: async (key) => inner.peek(key),
    key: (name) => `self${keys}/${name}`,
  };
}

const check = (title: string) => {
  const found = snapshotChecks.find((each) => each.title.startsWith(title));
  if (!found) throw new Error(`no snapshot check "${title}"`);
  return found;
};

describe('the snapshot checks of the store conformance suite', () => {
  it.each(snapshotChecks.map((each) => [each.title, each] as const))(
    'pass on the memory store: %s',
    async (_title, each) => {
      await each.run(context((inner) => inner));
    },
  );

  it.each(['never writes over a moved version', 'never loses a write under concurrent updates'])(
    'catch a store that writes over a moved version: %s',
    async (title) => {
      // An assertion of the check fails: not some other error (a TypeError in the check).
      await expect(
        check(title).run(context((inner) => new OverwritingStore(inner))),
      ).rejects.toMatchObject({ name: 'AssertionError' });
    },
  );

  it('catch a store that trusts a stale snapshot: confirms a stale snapshot before writing nothing', async () => {
    const broken = context((inner) => new StaleTrustingStore(inner));
    await expect(check('confirms a stale snapshot').run(broken)).rejects.toMatchObject({
      name: 'AssertionError',
    });
  });
});
