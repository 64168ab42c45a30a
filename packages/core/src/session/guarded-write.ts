/**
 * "Write only if the lock rule says so", in one place: every write of a profile record (a
 * load's attempt, a save, the release, an erasure, a trade marker, an orphaned lock's release)
 * is one atomic update whose transform reads the record, checks it (`parseRecord`), runs the
 * write's lock rule, and builds the next record, checked against the store's `maxRecordBytes`.
 *
 * A write given the snapshot its caller last saw (`expected`) sends it to the store, which then
 * needs no read when the version has not moved; the record of that snapshot, and the record a
 * write itself built, were checked when they were made and are not walked again.
 *
 * One error wrapping: a refusal by the transform (a record this server must not write, data
 * over the limit, a migration that threw) is kept, or made `Data.InvalidRecord`, and ends any
 * retry (the transform is pure: it would refuse again); a failure of the store is
 * `Data.BackendFailed` ("save of p1 failed: ...") unless the store gave a typed error.
 *
 * One event policy, applied by the callers: the update reports nothing. A session's write that
 * finds the lock taken loses the session (`lock.lost`), whatever the write; a failed save
 * reports `profile.save-failed` and a failed release `profile.release-failed`; a failed erase
 * or trade marker rejects the operation that asked for it.
 */
import type { DriverContext } from '../context/context.js';
import { type DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { Store, StoreRecord, StoreSnapshot, UpdateOptions } from '../ports/store.js';
import {
  checkRecordSize,
  checkWritable,
  endsRetries,
  type ProfileRecord,
  parseRecord,
  toStoreRecord,
} from '../rules/index.js';

export interface GuardedWrite<D> {
  /** The profile key written. */
  readonly key: string;
  /** Its store key, when the caller has made it already (a session makes it once). */
  readonly storeKey?: string;
  /** What the write is, for its error messages: `load`, `save`, `release`... */
  readonly what: string;
  /** The lock rule of this write, run on the record as stored now (maybe more than once). */
  decide(record: ProfileRecord | undefined): D;
  /** The record to write for `decision`: `undefined` writes nothing, `null` deletes it. */
  next(record: ProfileRecord | undefined, decision: D): ProfileRecord | null | undefined;
  /** Also keep the written record as a version (the store's `keepVersion`). */
  readonly keepVersion?: boolean;
}

export type Written<D> =
  | {
      readonly ok: true;
      /** The decision of the transform's last run: the one the stored record follows. */
      readonly decision: D;
      /** The record stored after the write. */
      readonly stored: ProfileRecord | undefined;
      /** The store's snapshot of it: the `expected` of the next write. */
      readonly snapshot: StoreSnapshot | undefined;
      /** True when `stored` is the record this write's last run built, as the store took it. */
      readonly wrote: boolean;
    }
  | {
      readonly ok: false;
      readonly error: DataDriverError;
      /** True when trying again cannot help (see `endsRetries`). */
      readonly final: boolean;
    };

/**
 * One guarded write as an object: the write's own rule (`decide`, `next`), what its outcome
 * leads to (`settled`), and its transform's last run. A save, the release and a load's attempt
 * are each one of these: their transform and the store's two callbacks are the only closures a
 * write makes (a function would make a scope, a run object and the caller's callback besides).
 * A write's runs come one after another: each `update` starts when the one before settled.
 */
export abstract class GuardedUpdate<D, R> implements GuardedWrite<D> {
  abstract readonly key: string;
  abstract readonly storeKey?: string | undefined;
  abstract readonly what: string;
  /** Also keep the written record as a version; none unless a write says so (a load's never). */
  declare keepVersion?: boolean | undefined;
  abstract decide(record: ProfileRecord | undefined): D;
  abstract next(record: ProfileRecord | undefined, decision: D): ProfileRecord | null | undefined;
  /**
   * What the outcome leads to, run in the write's own callback: a caller that goes on from it
   * costs no promise of its own. What it throws rejects the update; nothing else does.
   */
  protected abstract settled(written: Written<D>): R | PromiseLike<R>;

  /** The update under way: the snapshot it was given, and its store (for its size limit). */
  #expected: StoreSnapshot | undefined;
  #store: Pick<Store, 'maxRecordBytes'> | undefined;
  /** The transform's last run: what it saw, decided and returned (`#ran` once it decided). */
  #ran = false;
  #decision: D | undefined;
  #current: StoreRecord | undefined;
  #record: ProfileRecord | undefined;
  #next: ProfileRecord | null | undefined;
  /** What the transform threw, if it refused. */
  #refusal: unknown;

  /**
   * The write, resolving with what `settled` makes of its outcome. `expected`: the snapshot of
   * this record the caller last saw (the store's `expected`).
   */
  update(
    context: Pick<DriverContext, 'store' | 'keys'>,
    expected: StoreSnapshot | undefined,
  ): Promise<R> {
    const { store } = context;
    this.#expected = expected;
    this.#store = store;
    this.#ran = false;
    this.#refusal = undefined;
    // Not an async function: one promise per write (the store's, and this `then`), not three.
    let pending: Promise<StoreSnapshot | undefined>;
    try {
      const storeKey = this.storeKey ?? context.keys.store(this.key);
      pending = Promise.resolve(
        store.update(storeKey, this.#transform, updateOptions(this.keepVersion, expected)),
      );
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(this.#stored, this.#failedWith);
  }

  readonly #transform = (current: StoreRecord | undefined) => {
    const { key } = this;
    try {
      const record =
        current !== undefined && current === this.#expected?.record
          ? (current as unknown as ProfileRecord)
          : parseRecord(key, current);
      const decision = this.decide(record);
      this.#ran = true;
      this.#decision = decision;
      this.#current = current;
      this.#record = record;
      this.#next = undefined;
      const next = this.next(record, decision);
      this.#next = next;
      if (next === null || next === undefined) return next;
      const maxRecordBytes = this.#store?.maxRecordBytes;
      return checkRecordSize(key, toStoreRecord(checkWritable(key, next)), maxRecordBytes);
    } catch (error) {
      this.#refusal = error;
      throw error;
    }
  };

  readonly #stored = (snapshot: StoreSnapshot | undefined) => this.settled(this.#outcome(snapshot));

  readonly #failedWith = (error: unknown) => this.settled(this.#failure(error));

  /** What the store's answer says of the write, given the transform's last run. */
  #outcome(snapshot: StoreSnapshot | undefined): Written<D> {
    const { key, what } = this;
    if (!this.#ran) {
      const error = toDataDriverError(
        'the store resolved without running the transform',
        ErrorCode.BackendFailed,
        `${what} of ${key} failed`,
      );
      return { ok: false, error, final: true };
    }
    try {
      const stored = this.#storedAfter(snapshot);
      const wrote = stored !== undefined && stored === this.#next;
      return { ok: true, decision: this.#decision as D, stored, snapshot, wrote };
    } catch (error) {
      return this.#failure(error);
    }
  }

  /**
   * The record stored after the last run: the one it wrote, or the one it saw and left, both
   * checked already; only a record the store resolved with otherwise is parsed.
   */
  #storedAfter(snapshot: StoreSnapshot | undefined): ProfileRecord | undefined {
    const next = this.#next;
    if (next === null) return undefined;
    if (next !== undefined && snapshot !== undefined) return next;
    if (snapshot?.record === this.#current) return this.#record;
    return parseRecord(this.key, snapshot?.record);
  }

  #failure(error: unknown): Written<D> {
    const { key, what } = this;
    const refusal = this.#refusal;
    const byTransform = refusal !== undefined && error === refusal;
    const failure = byTransform
      ? toDataDriverError(
          error,
          ErrorCode.InvalidRecord,
          `the record of ${key} cannot be ${what === 'load' ? 'loaded' : 'written'}`,
        )
      : toDataDriverError(error, ErrorCode.BackendFailed, `${what} of ${key} failed`);
    return { ok: false, error: failure, final: endsRetries(failure, byTransform) };
  }
}

/**
 * The write, resolving with what `settle` makes of its outcome (the outcome itself without
 * one): for the writes made rarely (an erasure, a trade marker, an orphaned lock's release),
 * given as plain objects.
 */
export function guardedWrite<D>(
  context: Pick<DriverContext, 'store' | 'keys'>,
  write: GuardedWrite<D>,
  /** The snapshot of this record the caller last saw (the store's `expected`). */
  expected?: StoreSnapshot,
): Promise<Written<D>>;
export function guardedWrite<D, R>(
  context: Pick<DriverContext, 'store' | 'keys'>,
  write: GuardedWrite<D>,
  expected: StoreSnapshot | undefined,
  settle: (written: Written<D>) => R | PromiseLike<R>,
): Promise<R>;
export function guardedWrite<D, R>(
  context: Pick<DriverContext, 'store' | 'keys'>,
  write: GuardedWrite<D>,
  expected?: StoreSnapshot,
  settle: (written: Written<D>) => R | PromiseLike<R> = (written) => written as R,
): Promise<R> {
  return new PlainUpdate(write, settle).update(context, expected);
}

/** A `GuardedWrite` given as a plain object, and the callback its outcome goes to. */
class PlainUpdate<D, R> extends GuardedUpdate<D, R> {
  readonly key: string;
  readonly storeKey: string | undefined;
  readonly what: string;
  override readonly keepVersion: boolean | undefined;
  constructor(
    private readonly write: GuardedWrite<D>,
    private readonly settle: (written: Written<D>) => R | PromiseLike<R>,
  ) {
    super();
    this.key = write.key;
    this.storeKey = write.storeKey;
    this.what = write.what;
    this.keepVersion = write.keepVersion;
  }
  decide(record: ProfileRecord | undefined): D {
    return this.write.decide(record);
  }
  next(record: ProfileRecord | undefined, decision: D): ProfileRecord | null | undefined {
    return this.write.next(record, decision);
  }
  protected settled(written: Written<D>): R | PromiseLike<R> {
    return this.settle(written);
  }
}

function updateOptions(
  keepVersion: boolean | undefined,
  expected: StoreSnapshot | undefined,
): UpdateOptions | undefined {
  if (keepVersion === undefined) return expected === undefined ? undefined : { expected };
  return expected === undefined ? { keepVersion } : { keepVersion, expected };
}
