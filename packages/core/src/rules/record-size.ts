/**
 * The size check of every record core writes, against the store's `maxRecordBytes`: an
 * oversized record is refused before it is sent (`Data.TooLarge`), so it never reaches a
 * backend that would drop the connection it shares with every other profile.
 */
import { DataDriverError, ErrorCode } from '../errors.js';
import type { StoreRecord } from '../ports/store.js';

/** The UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLow(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** `record`, or `Data.TooLarge` when its JSON is over `maxBytes` (no limit when undefined). */
export function checkRecordSize<R extends StoreRecord>(
  key: string,
  record: R,
  maxBytes: number | undefined,
): R {
  if (maxBytes === undefined) return record;
  const bytes = utf8Bytes(JSON.stringify(record));
  if (bytes > maxBytes) {
    throw new DataDriverError(
      ErrorCode.TooLarge,
      `the record of ${key} would be ${bytes} bytes, over the store's maxRecordBytes of ${maxBytes}; nothing was written`,
      { details: { key, bytes, maxBytes } },
    );
  }
  return record;
}
