/**
 * The store as a load's first run sees it after a holder's signed reply handed it the record
 * (`rules/handed-snapshot.ts`): the reply's snapshot, what the holder's release committed with
 * this load's lock. A run of the load's transform that writes nothing there (the lock is the
 * load's already) settles on that snapshot with no call to the store: the hand-over then costs
 * the store no read. Only a server that took the lock since (this one's presence read absent
 * twice a beat apart) could have moved it, and a take on it is dated from the load's first
 * ask for it, so a reply that comes a beat late is confirmed by a read (`slow-take.ts`). A
 * run that writes (a migration) goes to the store with the snapshot as `expected`, which
 * checks its version; a run that throws on it goes to the store as if there were no reply.
 */
import { copyWith } from '../ports/copy-with.js';
import type {
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  UpdateOptions,
} from '../ports/store.js';

export class HandedStore implements Store {
  readonly specificationVersion = 'v2';
  readonly maxRecordBytes: number | undefined;

  constructor(
    private readonly store: Store,
    private readonly snapshot: StoreSnapshot,
  ) {
    this.maxRecordBytes = store.maxRecordBytes;
  }

  update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined> {
    const { snapshot } = this;
    let next: StoreRecord | null | undefined;
    try {
      next = transform(snapshot.record);
    } catch {
      return this.store.update(key, transform, options);
    }
    if (next === undefined) return Promise.resolve(snapshot);
    return this.store.update(key, transform, copyWith(options ?? {}, { expected: snapshot }));
  }

  get(key: string): Promise<StoreRecord | undefined> {
    return this.store.get(key);
  }
}
