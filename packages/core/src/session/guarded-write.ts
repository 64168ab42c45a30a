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
 * One event policy, applied by the callers: the helper reports nothing. A session's write that
 * finds the lock taken loses the session (`lock.lost`), whatever the write; a failed save
 * reports `profile.save-failed` and a failed release `profile.release-failed`; a failed erase
 * or trade marker rejects the operation that asked for it.
 */
import type { DriverContext } from '../context/context.js';
import { type DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { StoreRecord, StoreSnapshot, UpdateOptions } from '../ports/store.js';
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
 * The write, resolving with what `settle` makes of its outcome (the outcome itself without
 * one). `settle` runs in the write's own callback: a caller that goes on from the outcome
 * costs no promise of its own. What it throws rejects; nothing else does.
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
  const { key } = write;
  let made: Run<D> | undefined;
  let refusal: unknown;
  const transform = (current: StoreRecord | undefined) => {
    try {
      const record =
        current !== undefined && current === expected?.record
          ? (current as unknown as ProfileRecord)
          : parseRecord(key, current);
      const decision = write.decide(record);
      made = { decision, current, record, next: undefined };
      const next = write.next(record, decision);
      made.next = next;
      if (next === null || next === undefined) return next;
      return checkRecordSize(
        key,
        toStoreRecord(checkWritable(key, next)),
        context.store.maxRecordBytes,
      );
    } catch (error) {
      refusal = error;
      throw error;
    }
  };
  const failed = (error: unknown): Written<D> => {
    const byTransform = refusal !== undefined && error === refusal;
    const failure = byTransform
      ? toDataDriverError(
          error,
          ErrorCode.InvalidRecord,
          `the record of ${key} cannot be ${write.what === 'load' ? 'loaded' : 'written'}`,
        )
      : toDataDriverError(error, ErrorCode.BackendFailed, `${write.what} of ${key} failed`);
    return { ok: false, error: failure, final: endsRetries(failure, byTransform) };
  };
  // Not an async function: one promise per write (the store's, and this `then`), not three.
  let pending: Promise<StoreSnapshot | undefined>;
  try {
    const storeKey = write.storeKey ?? context.keys.store(key);
    pending = Promise.resolve(
      context.store.update(storeKey, transform, updateOptions(write, expected)),
    );
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.then(
    (snapshot) => settle(outcome(key, write.what, made, snapshot, failed)),
    (error: unknown) => settle(failed(error)),
  );
}

/** What the store's answer says of the write, given the transform's last run (`made`). */
function outcome<D>(
  key: string,
  what: string,
  made: Run<D> | undefined,
  snapshot: StoreSnapshot | undefined,
  failed: (error: unknown) => Written<D>,
): Written<D> {
  if (made === undefined) {
    const error = toDataDriverError(
      'the store resolved without running the transform',
      ErrorCode.BackendFailed,
      `${what} of ${key} failed`,
    );
    return { ok: false, error, final: true };
  }
  try {
    const stored = storedAfter(key, made, snapshot);
    const wrote = stored !== undefined && stored === made.next;
    return { ok: true, decision: made.decision, stored, snapshot, wrote };
  } catch (error) {
    return failed(error);
  }
}

/** One run of a write's transform: what it saw, and what it returned. */
interface Run<D> {
  readonly decision: D;
  readonly current: StoreRecord | undefined;
  readonly record: ProfileRecord | undefined;
  next: ProfileRecord | null | undefined;
}

function updateOptions(
  write: GuardedWrite<unknown>,
  expected: StoreSnapshot | undefined,
): UpdateOptions | undefined {
  const { keepVersion } = write;
  if (keepVersion === undefined) return expected === undefined ? undefined : { expected };
  return expected === undefined ? { keepVersion } : { keepVersion, expected };
}

/**
 * The record stored after the last run: the one it wrote, or the one it saw and left, both
 * checked already; only a record the store resolved with otherwise is parsed.
 */
function storedAfter(
  key: string,
  run: Run<unknown>,
  snapshot: StoreSnapshot | undefined,
): ProfileRecord | undefined {
  if (run.next === null) return undefined;
  if (run.next !== undefined && snapshot !== undefined) return run.next;
  if (snapshot?.record === run.current) return run.record;
  return parseRecord(key, snapshot?.record);
}
