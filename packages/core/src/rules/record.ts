import { DataDriverError, ErrorCode } from '../errors.js';
import { isPlainObject, type JsonObject } from '../json.js';
import type { StoreRecord } from '../ports/store.js';

/** The session lock as stored in a record's meta. */
export interface LockInfo {
  /** The holder server's id. */
  readonly jobId: string;
  /** Drawn fresh by every load: names one session of one profile. */
  readonly token: string;
  /** The holder's clock at its last write, in ms: a lock's age is the holder's silence. */
  readonly time: number;
  /** True when the holder beats presence (handoff on), so presence may protect or free it. */
  readonly presence: boolean;
}

/** A trade in flight on this record: settle or abort it from its journal before loading. */
export interface TradeMarker {
  readonly id: string;
  readonly journal: string;
  /** The record's version when the marker was written; a later save already settled it. */
  readonly version: number;
}

export interface RecordMeta {
  /** Counts committed writes. */
  readonly version: number;
  readonly lock?: LockInfo;
  /** The token of the last session that released this record. */
  readonly releasedToken?: string;
  readonly trade?: TradeMarker;
  /** The schema version of `data` (migrations). */
  readonly schema?: number;
  /** The user ids this record belongs to (for erasure requests). */
  readonly userIds?: readonly string[];
}

export interface ProfileRecord {
  readonly data: JsonObject;
  readonly meta: RecordMeta;
}

/** Reads a stored value as a profile record, or refuses it: a foreign value is never overwritten. */
export function parseRecord(
  key: string,
  value: StoreRecord | undefined,
): ProfileRecord | undefined {
  if (value === undefined) return undefined;
  const meta = value.meta;
  if (!isPlainObject(value.data) || !isPlainObject(meta) || typeof meta.version !== 'number') {
    throw new DataDriverError(
      ErrorCode.InvalidRecord,
      `the value stored under ${key} is not a DataDriver record; it was left untouched`,
      { details: { key } },
    );
  }
  if (meta.lock !== undefined && !isLock(meta.lock)) {
    throw new DataDriverError(
      ErrorCode.InvalidRecord,
      `the lock stored under ${key} is malformed`,
      {
        details: { key },
      },
    );
  }
  return value as unknown as ProfileRecord;
}

function isLock(value: unknown): value is LockInfo {
  return (
    isPlainObject(value) &&
    typeof value.jobId === 'string' &&
    typeof value.token === 'string' &&
    typeof value.time === 'number' &&
    typeof value.presence === 'boolean'
  );
}

/** The record as the store takes it. */
export function toStoreRecord(record: ProfileRecord): StoreRecord {
  return record as unknown as StoreRecord;
}

/** A copy of `meta` without the optional fields named, for writes that clear them. */
export function withoutMeta<K extends 'lock' | 'releasedToken' | 'trade'>(
  meta: RecordMeta,
  ...fields: K[]
): Omit<RecordMeta, K> {
  const copy: Record<string, unknown> = { ...meta };
  for (const field of fields) delete copy[field];
  return copy as Omit<RecordMeta, K>;
}

/** Fills keys missing from older records with the defaults' values (top level only). */
export function fillDefaults(data: JsonObject, defaults: JsonObject): JsonObject {
  const filled: JsonObject = { ...data };
  for (const [key, value] of Object.entries(defaults)) {
    if (!(key in filled)) filled[key] = structuredClone(value);
  }
  return filled;
}
