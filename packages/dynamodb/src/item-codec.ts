/**
 * One record as one DynamoDB item: the key, the record as a JSON string, and a revision that
 * conditional writes compare. A JSON string keeps every JSON value exactly (no 38-digit number
 * limit, no nesting limit), makes the 400 KB check exact, and still reads as plain JSON in the
 * console and the CLI.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DataDriverError,
  ErrorCode,
  isPlainObject,
  recordJson,
  type StoreRecord,
} from '@datadriver/core/ports';
import { MAX_ITEM_BYTES, MAX_KEY_BYTES, stringItemBytes } from './item-size.js';
import type { VersionMark } from './version-mark.js';

/** The attribute holding the record as JSON. */
export const RECORD_ATTRIBUTE = 'record';
/** The attribute holding a fresh random id per write, which conditional writes compare. */
export const REVISION_ATTRIBUTE = 'revision';

/**
 * The attributes holding the time and sequence number of the record's newest version, when
 * the store keeps versions: the next version is stamped after them (see version-mark.ts).
 */
export const NEWEST_VERSION_TIME_ATTRIBUTE = 'versionTime';
export const NEWEST_VERSION_SEQ_ATTRIBUTE = 'versionSeq';

export type Item = Record<string, AttributeValue>;

/** A decoded item: the record, and the revision it was read at (none for a hand-made item). */
export interface StoredItem {
  readonly record: StoreRecord;
  readonly revision: string | undefined;
  /** The record's newest version, when a versioned write left its mark. */
  readonly newestVersion: VersionMark | undefined;
}

export class ItemCodec {
  constructor(readonly keyAttribute: string) {}

  /** The item's primary key; refuses a key DynamoDB cannot store. */
  key(key: string): Item {
    checkKey(key);
    return { [this.keyAttribute]: { S: key } };
  }

  /**
   * The item to write, with the JSON sent, and the mark of the record's newest version.
   * Refuses, before anything is sent, an item over DynamoDB's 400 KB limit.
   */
  encode(
    key: string,
    record: StoreRecord,
    revision: string,
    newestVersion?: VersionMark,
  ): { item: Item; json: string } {
    const json = recordJson(record);
    // Strings, like every attribute here, so that the size check stays exact.
    const attributes: Record<string, string> = {
      [this.keyAttribute]: key,
      [RECORD_ATTRIBUTE]: json,
      [REVISION_ATTRIBUTE]: revision,
      ...(newestVersion && {
        [NEWEST_VERSION_TIME_ATTRIBUTE]: String(newestVersion.time),
        [NEWEST_VERSION_SEQ_ATTRIBUTE]: String(newestVersion.seq),
      }),
    };
    const bytes = stringItemBytes(attributes);
    if (bytes > MAX_ITEM_BYTES) throw tooLarge(key, bytes);
    const item: Item = {};
    for (const [name, value] of Object.entries(attributes)) item[name] = { S: value };
    return { item, json };
  }

  /** The record in `item`; refuses an item that holds no JSON object (it is left untouched). */
  decode(key: string, item: Item | undefined): StoredItem | undefined {
    if (item === undefined) return undefined;
    const record = recordOf(item[RECORD_ATTRIBUTE]?.S);
    if (record === undefined) {
      throw new DataDriverError(
        ErrorCode.InvalidRecord,
        `the DynamoDB item under ${key} has no JSON object in its "${RECORD_ATTRIBUTE}" string attribute; it was left untouched`,
        { details: { key } },
      );
    }
    return {
      record,
      revision: item[REVISION_ATTRIBUTE]?.S,
      newestVersion: markOf(item),
    };
  }
}

/** The newest-version mark of a record item; none when absent or not whole numbers. */
function markOf(item: Item): VersionMark | undefined {
  const time = wholeNumber(item[NEWEST_VERSION_TIME_ATTRIBUTE]?.S);
  const seq = wholeNumber(item[NEWEST_VERSION_SEQ_ATTRIBUTE]?.S);
  return time === undefined || seq === undefined ? undefined : { time, seq };
}

function wholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** The record in the JSON string `json`, or `undefined` when it holds no JSON object. */
export function recordOf(json: string | undefined): StoreRecord | undefined {
  return json === undefined ? undefined : parseObject(json);
}

/** Refuses, with `Data.InvalidArgument`, a key DynamoDB cannot store as a partition key. */
export function checkKey(key: string): void {
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes === 0 || bytes > MAX_KEY_BYTES) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a DynamoDB key must be 1 to ${MAX_KEY_BYTES} bytes of UTF-8, got ${bytes} bytes`,
      { details: { key, bytes } },
    );
  }
}

function parseObject(json: string): StoreRecord | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isPlainObject(value) ? (value as StoreRecord) : undefined;
  } catch {
    // Not JSON: reported by the caller as an InvalidRecord, naming the key.
    return undefined;
  }
}

/** Refuses `item` (the record, or its version) under `key`: it would be `bytes` bytes. */
export function tooLarge(key: string, bytes: number, item = 'the record'): DataDriverError {
  return new DataDriverError(
    ErrorCode.TooLarge,
    `${item} under ${key} would be a DynamoDB item of ${bytes} bytes, over DynamoDB's limit of ${MAX_ITEM_BYTES} bytes (400 KB); nothing was written`,
    { details: { key, bytes, limit: MAX_ITEM_BYTES } },
  );
}
