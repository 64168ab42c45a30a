/**
 * The store as a load's first run sees it after a holder's signed reply handed it the record
 * (`rules/handed-record.ts`): the record is known to be the reply's snapshot, what the holder's
 * release committed with this load's lock. A run of the load's transform that writes nothing
 * there (the lock is the load's already) settles on that snapshot with no call to the store:
 * the hand-over then costs the store no read. A run that writes (a migration, a trade marker
 * to settle) goes to the store with the snapshot as `expected`, which checks its version; a run
 * that throws on it goes to the store as if there were no reply, so the record stored decides.
 */
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
    return this.store.update(key, transform, { ...options, expected: snapshot });
  }

  get(key: string): Promise<StoreRecord | undefined> {
    return this.store.get(key);
  }
}
