/**
 * The store's version retention, checked once at construction and turned into the two script
 * arguments every versions script takes: a count and an age in ms, each '' when unset.
 */
import { DataDriverError, ErrorCode, type VersionRetention } from '@datadriver/core';

/** `[keep, maxAgeMs]` as script arguments; '' means no limit of that kind. */
export type RetentionArgs = readonly [keep: string, maxAgeMs: string];

function invalid(message: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidConfig, message);
}

/** The script arguments of `retention`; rejects a count or an age that is not positive. */
export function retentionArgs(retention: VersionRetention): RetentionArgs {
  const { keep, maxAgeSeconds } = retention;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) {
    throw invalid(`versions.keep must be a positive integer, got ${String(keep)}`);
  }
  if (maxAgeSeconds !== undefined && !(Number.isFinite(maxAgeSeconds) && maxAgeSeconds > 0)) {
    throw invalid(`versions.maxAgeSeconds must be a positive number, got ${String(maxAgeSeconds)}`);
  }
  // Whole milliseconds: the scripts set a key's expiry with PEXPIREAT, which takes integers.
  const maxAgeMs =
    maxAgeSeconds === undefined ? '' : String(Math.max(1, Math.round(maxAgeSeconds * 1000)));
  return [keep === undefined ? '' : String(keep), maxAgeMs];
}
