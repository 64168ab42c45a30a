import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainObject, type JsonObject, jsonClone } from '../ports/json.js';
import type { StoreRecord } from '../ports/store.js';
import { describeJsonProblem, findJsonProblem, MAX_DATA_DEPTH } from './json-problems.js';
import { isWellFormedText } from './keys.js';
import { DEFAULT_INBOX_LIMITS } from './messages/limits.js';
import { type ProfileMessages, profileMessagesProblem } from './messages/profile-messages.js';

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
  /**
   * The oldest schema whose servers can load `data` (its newest migrations are backwards
   * compatible); absent when only `schema` can.
   */
  readonly compatible?: number;
  /** The user ids this record belongs to (for erasure requests). */
  readonly userIds?: readonly string[];
  /**
   * The ids of the messages the profile applied and its undelivered transfers: written only by
   * the holder, in the same compare-and-set as the messages' effect. Absent in a record of a
   * build before messages, or of a profile that never had one.
   */
  readonly messages?: ProfileMessages;
}

export interface ProfileRecord {
  readonly data: JsonObject;
  readonly meta: RecordMeta;
}

/**
 * Reads a stored value as a profile record, or refuses it with `Data.InvalidRecord`: every
 * part core reads is checked here, before any write, so a foreign or damaged value is never
 * overwritten and never half-loaded.
 */
export function parseRecord(
  key: string,
  value: StoreRecord | undefined,
): ProfileRecord | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value) || !isPlainObject(value.data) || !isPlainObject(value.meta)) {
    throw invalidRecord(key, 'is not a DataDriver record');
  }
  const problem =
    findJsonProblem(value.data, 'data') ?? findJsonProblem(value.meta, 'meta', MAX_DATA_DEPTH);
  if (problem) throw invalidRecord(key, `holds ${describeJsonProblem(problem)}`);
  const wrong = metaProblem(value.meta);
  if (wrong) throw invalidRecord(key, `has ${wrong}`);
  return value as unknown as ProfileRecord;
}

/** What is wrong with a stored record's meta, or `undefined`. */
function metaProblem(meta: Record<string, unknown>): string | undefined {
  if (Number.isInteger(meta.version) && (meta.version as number) > Number.MAX_SAFE_INTEGER) {
    return 'a meta.version past Number.MAX_SAFE_INTEGER';
  }
  if (!isCount(meta.version)) return 'no meta.version (a non-negative integer)';
  if (meta.lock !== undefined && !isLock(meta.lock)) return 'a malformed meta.lock';
  if (meta.releasedToken !== undefined && !isText(meta.releasedToken)) {
    return 'a meta.releasedToken that is not a string';
  }
  if (meta.trade !== undefined && !isMarker(meta.trade)) return 'a malformed meta.trade';
  if (meta.schema !== undefined && !isCount(meta.schema)) {
    return 'a meta.schema that is not a non-negative integer';
  }
  if (meta.compatible !== undefined && !isCount(meta.compatible)) {
    return 'a meta.compatible that is not a non-negative integer';
  }
  if (meta.userIds !== undefined && !isTextList(meta.userIds)) {
    return 'a meta.userIds that is not a list of strings';
  }
  if (meta.messages !== undefined) {
    return profileMessagesProblem(meta.messages, DEFAULT_INBOX_LIMITS);
  }
  return undefined;
}

/**
 * `record`, or `Data.InvalidRecord` when it is not a record `parseRecord` would read back: run
 * on every record a write builds, inside its transform, so a write that would leave an
 * unreadable record (a version past `Number.MAX_SAFE_INTEGER`) writes nothing.
 */
export function checkWritable(key: string, record: ProfileRecord): ProfileRecord {
  const wrong = metaProblem(record.meta as unknown as Record<string, unknown>);
  if (wrong) {
    throw new DataDriverError(
      ErrorCode.InvalidRecord,
      `the record of ${key} would have ${wrong}; nothing was written`,
      { details: { key } },
    );
  }
  return record;
}

function invalidRecord(key: string, what: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidRecord,
    `the value stored under ${key} ${what}; it was left untouched`,
    { details: { key } },
  );
}

const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

const isText = isWellFormedText;

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isLock(value: unknown): value is LockInfo {
  return (
    isPlainObject(value) &&
    isText(value.jobId) &&
    isText(value.token) &&
    Number.isFinite(value.time) &&
    typeof value.presence === 'boolean'
  );
}

function isMarker(value: unknown): value is TradeMarker {
  return (
    isPlainObject(value) && isText(value.id) && isText(value.journal) && isCount(value.version)
  );
}

/** The record as the store takes it. */
export function toStoreRecord(record: ProfileRecord): StoreRecord {
  return record as unknown as StoreRecord;
}

/**
 * Fills keys missing from older records with the defaults' values (top level only). Own keys
 * only, and defined as own properties: a default named `constructor` or `__proto__` is filled
 * like any other, and never reaches a prototype.
 */
export function fillDefaults(data: JsonObject, defaults: JsonObject): JsonObject {
  const filled: JsonObject = { ...data };
  // `for...in` walks V8's cached keys; `Object.entries` made a list of pairs on every load.
  // Only own keys: an enumerable field someone put on `Object.prototype` is no default.
  for (const key in defaults) {
    if (Object.hasOwn(defaults, key) && !Object.hasOwn(filled, key)) {
      defineOwn(filled, key, jsonClone(defaults[key]));
    }
  }
  return filled;
}

/** True when `fillDefaults` would add a key to `data`: the session's data is not the stored one. */
export function lacksDefaults(data: JsonObject, defaults: JsonObject): boolean {
  for (const key in defaults) {
    if (Object.hasOwn(defaults, key) && !Object.hasOwn(data, key)) return true;
  }
  return false;
}

/** Sets `object[key]` as an own data property, even for `__proto__`. */
export function defineOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
