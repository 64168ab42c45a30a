/**
 * The size check of every record core writes, against the store's `maxRecordBytes`: an
 * oversized record is refused before it is sent (`Data.TooLarge`), so it never reaches a
 * backend that would drop the connection it shares with every other profile.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { recordJson } from '../ports/record-json.js';
import type { StoreRecord } from '../ports/store.js';

/** The UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `record`, or `Data.TooLarge` when its JSON is over `maxBytes` (no limit when undefined). */
export function checkRecordSize<R extends StoreRecord>(
  key: string,
  record: R,
  maxBytes: number | undefined,
): R {
  if (maxBytes === undefined) return record;
  const json = recordJson(record);
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most records fit without being counted.
  if (json.length * 3 <= maxBytes) return record;
  const bytes = utf8Bytes(json);
  if (bytes > maxBytes) {
    throw new DataDriverError(
      ErrorCode.TooLarge,
      `the record of ${key} would be ${bytes} bytes, over the store's maxRecordBytes of ${maxBytes}; nothing was written`,
      { details: { key, bytes, maxBytes } },
    );
  }
  return record;
}
