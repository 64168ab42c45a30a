/**
 * How a store key and its record sit in a row: the key as the UTF-8 bytes of its text
 * (`bytea`), the record as the JSON text written. A row whose record is not a JSON object was
 * not written by DataDriver: it is reported as `Data.InvalidRecord` and never overwritten.
 */
import {
  DataDriverError,
  ErrorCode,
  isPlainObject,
  type StoreRecord,
} from '@datadriver/core/ports';

/** The `bytea` a store key is stored under. */
export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

/** The store key a `bytea` holds. */
export function keyOfBytes(bytes: Buffer): string {
  return bytes.toString('utf8');
}

/**
 * The first key after every key that starts with `prefix`, for a range scan; `undefined` for
 * an empty prefix (no upper bound). UTF-8 never holds a 0xff byte, so the last byte of a
 * prefix can always be raised by one.
 */
export function keysAfterPrefix(prefix: Buffer): Buffer | undefined {
  if (prefix.length === 0) return undefined;
  const after = Buffer.from(prefix);
  after[after.length - 1] = (after[after.length - 1] ?? 0) + 1;
  return after;
}

/** The error for a row under `key` that DataDriver did not write. */
export function foreign(key: string, table: string, why: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidRecord,
    `the row of ${JSON.stringify(key)} in ${table} is not a DataDriver record (${why}); it is left untouched`,
    { details: { key, table } },
  );
}

/** The record a row's JSON holds, parsed afresh: each caller gets its own copy. */
export function recordOf(json: string, key: string, table: string): StoreRecord {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw foreign(key, table, 'its record is not JSON');
  }
  if (!isPlainObject(value)) throw foreign(key, table, 'its record is not a JSON object');
  return value as StoreRecord;
}
