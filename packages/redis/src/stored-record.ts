/**
 * How a record sits in Redis: a hash with `version` (random per write, the compare-and-set's
 * subject) and `record` (the JSON the transform returned). Anything else under the key is
 * someone else's value, reported as `Data.InvalidRecord` and never overwritten.
 */
import {
  DataDriverError,
  ErrorCode,
  isPlainObject,
  type StoreRecord,
  type StoreSnapshot,
} from '@datadriver/core/ports';

/** A record as read, with the version a write must find to replace it. */
export interface Snapshot {
  readonly version: string;
  readonly json: string;
}

/** The error for a value under `redisKey` that DataDriver did not write. */
export function foreign(redisKey: string, why: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidRecord,
    `the value under ${redisKey} is not a DataDriver record (${why}); it is left untouched`,
    { details: { key: redisKey } },
  );
}

/** The snapshot in a hash's fields (HGETALL), or `undefined` when the key holds nothing. */
export function snapshotOf(
  fields: Readonly<Record<string, string>>,
  redisKey: string,
): Snapshot | undefined {
  const { version, record } = fields;
  if (version !== undefined && record !== undefined) return { version, json: record };
  if (Object.keys(fields).length === 0) return undefined;
  throw foreign(redisKey, 'a hash without version and record');
}

/** The record a snapshot holds, parsed afresh: each caller gets its own copy. */
export function recordOf(
  snapshot: Snapshot | undefined,
  redisKey: string,
): StoreRecord | undefined {
  if (snapshot === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(snapshot.json);
  } catch {
    throw foreign(redisKey, 'its record field is not JSON');
  }
  if (!isPlainObject(value)) throw foreign(redisKey, 'its record field is not a JSON object');
  return value as StoreRecord;
}

/** What a run of a transform sees: a record and its version, as the caller or the store gave it. */
export interface Seen {
  /** The version of `record`; `undefined` with no record. */
  readonly version: string | undefined;
  readonly record: StoreRecord | undefined;
}

/** What the store holds, as read or carried back by a failed compare-and-set. */
export function seenIn(snapshot: Snapshot | undefined, redisKey: string): Seen {
  return { version: snapshot?.version, record: recordOf(snapshot, redisKey) };
}

export function snapshotOfSeen({ version, record }: Seen): StoreSnapshot | undefined {
  return version === undefined || record === undefined ? undefined : { record, version };
}
