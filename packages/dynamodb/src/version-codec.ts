/**
 * One kept version as one item of the versions table: the record's key (partition key), the
 * version's time (sort key, a number, so a time range is a key condition), its sequence number,
 * the record as the same JSON string the record item holds, and, with an age limit, the epoch
 * second at which DynamoDB's TTL may delete it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { type Item, RECORD_ATTRIBUTE, tooLarge } from './item-codec.js';
import { MAX_ITEM_BYTES, stringItemBytes } from './item-size.js';
import type { VersionMark } from './version-mark.js';

/** The versions table's sort key: the version's time in ms, a number. */
export const VERSION_TIME_ATTRIBUTE = 'time';
/** The version's sequence number within its key, a number. */
export const VERSION_SEQ_ATTRIBUTE = 'seq';
/** The versions table's TTL attribute: epoch seconds after which the version is past its age. */
export const VERSION_EXPIRY_ATTRIBUTE = 'expiresAt';

/** DynamoDB's largest number: 38 significant digits in at most 21 bytes. */
const MAX_NUMBER_BYTES = 21;

export class VersionCodec {
  constructor(readonly keyAttribute: string) {}

  /** The primary key of version `time` of `key`. */
  key(key: string, time: number): Item {
    return { [this.keyAttribute]: { S: key }, [VERSION_TIME_ATTRIBUTE]: { N: String(time) } };
  }

  /**
   * The item of a version whose record is `json`; `expiresAt` in epoch seconds, if any.
   * Refuses, before anything is sent, an item over DynamoDB's 400 KB limit.
   */
  encode(key: string, json: string, mark: VersionMark, expiresAt: number | undefined): Item {
    const numbers: Record<string, number> = {
      [VERSION_TIME_ATTRIBUTE]: mark.time,
      [VERSION_SEQ_ATTRIBUTE]: mark.seq,
      ...(expiresAt !== undefined && { [VERSION_EXPIRY_ATTRIBUTE]: expiresAt }),
    };
    // Numbers are counted at their largest size: an upper bound, off by a few bytes at most.
    const bytes =
      stringItemBytes({ [this.keyAttribute]: key, [RECORD_ATTRIBUTE]: json }) +
      Object.keys(numbers).reduce((sum, name) => sum + name.length + MAX_NUMBER_BYTES, 0);
    if (bytes > MAX_ITEM_BYTES) throw tooLarge(key, bytes, 'the version of the record');
    const item: Item = { [this.keyAttribute]: { S: key }, [RECORD_ATTRIBUTE]: { S: json } };
    for (const [name, value] of Object.entries(numbers)) item[name] = { N: String(value) };
    return item;
  }

  /** The time and sequence number of a version item, read whole or projected on them. */
  mark(item: Item): VersionMark {
    return {
      time: numberOf(item[VERSION_TIME_ATTRIBUTE]),
      seq: numberOf(item[VERSION_SEQ_ATTRIBUTE]),
    };
  }

  /** The JSON of the record a version item holds. */
  json(item: Item): string | undefined {
    return item[RECORD_ATTRIBUTE]?.S;
  }
}

/** A number attribute; an item written by hand without one reads as 0 (oldest, first trimmed). */
function numberOf(value: AttributeValue | undefined): number {
  const number = Number(value?.N ?? 0);
  return Number.isFinite(number) ? number : 0;
}
