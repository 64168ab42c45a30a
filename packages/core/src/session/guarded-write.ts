/**
 * "Write only if the lock rule says so", in one place: every write of a profile record (a
 * load's attempt, a save, the release, an erasure, a trade marker, an orphaned lock's release)
 * is one atomic update whose transform reads the record, checks it (`parseRecord`), runs the
 * write's lock rule, and builds the next record, checked against the store's `maxRecordBytes`.
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
import type { DriverContext } from '../driver/context.js';
import { type DataDriverError, ErrorCode, toDataDriverError } from '../errors.js';
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
      readonly durationMs: number;
    }
  | {
      readonly ok: false;
      readonly error: DataDriverError;
      /** True when trying again cannot help (see `endsRetries`). */
      readonly final: boolean;
      readonly durationMs: number;
    };

export async function guardedWrite<D>(
  ctx: Pick<DriverContext, 'store' | 'scheduler' | 'keys'>,
  write: GuardedWrite<D>,
): Promise<Written<D>> {
  const { key } = write;
  const started = ctx.scheduler.now();
  const durationMs = () => ctx.scheduler.now() - started;
  let made: { decision: D } | undefined;
  let refusal: unknown;
  const transform = (current: Parameters<Parameters<typeof ctx.store.update>[1]>[0]) => {
    try {
      const record = parseRecord(key, current);
      const decision = write.decide(record);
      made = { decision };
      const next = write.next(record, decision);
      if (next === null || next === undefined) return next;
      return checkRecordSize(
        key,
        toStoreRecord(checkWritable(key, next)),
        ctx.store.maxRecordBytes,
      );
    } catch (error) {
      refusal = error;
      throw error;
    }
  };
  try {
    const storeKey = ctx.keys.store(key);
    const result =
      write.keepVersion === undefined
        ? await ctx.store.update(storeKey, transform)
        : await ctx.store.update(storeKey, transform, { keepVersion: write.keepVersion });
    const stored = parseRecord(key, result);
    if (made === undefined) {
      const error = toDataDriverError(
        'the store resolved without running the transform',
        ErrorCode.BackendFailed,
        `${write.what} of ${key} failed`,
      );
      return { ok: false, error, final: true, durationMs: durationMs() };
    }
    return { ok: true, decision: made.decision, stored, durationMs: durationMs() };
  } catch (error) {
    const byTransform = refusal !== undefined && error === refusal;
    const failure = byTransform
      ? toDataDriverError(
          error,
          ErrorCode.InvalidRecord,
          `the record of ${key} cannot be ${write.what === 'load' ? 'loaded' : 'written'}`,
        )
      : toDataDriverError(error, ErrorCode.BackendFailed, `${write.what} of ${key} failed`);
    return {
      ok: false,
      error: failure,
      final: endsRetries(failure, byTransform),
      durationMs: durationMs(),
    };
  }
}
