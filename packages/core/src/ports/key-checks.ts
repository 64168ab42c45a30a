/**
 * What a valid key or name is, in one place: core refuses the same keys at its entries as
 * every store refuses at its own (memory, Redis, DynamoDB). A string that is not well-formed
 * UTF-16 (a lone surrogate) cannot cross a backend unchanged: a client encodes it as U+FFFD,
 * so `"\uD800"` and `"\uFFFD"` would name one record.
 */
import { DataDriverError, ErrorCode } from '../errors.js';

/** True when `text` is well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed`. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Throws `Data.InvalidArgument` unless `key` is a string of well-formed UTF-16. A store calls
 * this at the top of `update` and `get`; `what` names the key in the message.
 */
export function checkStoreKey(key: unknown, what = 'a store key'): asserts key is string {
  if (typeof key !== 'string') {
    throw new DataDriverError(ErrorCode.InvalidArgument, `${what} must be a string`, {
      details: { key },
    });
  }
  if (!isWellFormed(key)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${what} ${JSON.stringify(key)} is not well-formed UTF-16 (it holds a lone surrogate), so a backend would store it as another key; nothing was read or written`,
      { details: { key } },
    );
  }
}

/**
 * `maxRecordBytes` when it is a positive integer, else `Data.InvalidConfig`: a store checks
 * its option at construction, core checks what a store declares.
 */
export function checkMaxRecordBytes(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `maxRecordBytes must be a positive integer number of bytes, got ${String(value)}`,
    );
  }
  return value as number;
}

/** True when `text` is a non-empty string of well-formed UTF-16. */
export function isWellFormedText(text: unknown): text is string {
  return typeof text === 'string' && text !== '' && isWellFormed(text);
}
