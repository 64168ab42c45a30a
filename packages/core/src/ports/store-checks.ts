/**
 * What a store checks, in one place: every store (memory, Redis, DynamoDB) refuses the same
 * `VersionRetention`, `VersionQuery` and `maxRecordBytes` with the same code and words, and is
 * left only the translation into its own terms.
 */
import { DataDriverError, ErrorCode } from './errors.js';
import type { VersionQuery, VersionRetention } from './store.js';

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

/**
 * Throws `Data.InvalidConfig` unless `keep` is a positive integer and `maxAgeSeconds` a
 * positive finite number (each may be absent). A store checks this at construction, so a typo
 * fails before the first write.
 */
export function checkVersionRetention(retention: VersionRetention): void {
  if (typeof retention !== 'object' || retention === null) {
    throw invalidRetention(`versions must be an object ({ keep?, maxAgeSeconds? })`);
  }
  const { keep, maxAgeSeconds } = retention;
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) {
    throw invalidRetention(`versions.keep must be a positive integer, got ${String(keep)}`);
  }
  if (maxAgeSeconds !== undefined && !(Number.isFinite(maxAgeSeconds) && maxAgeSeconds > 0)) {
    throw invalidRetention(
      `versions.maxAgeSeconds must be a positive number, got ${String(maxAgeSeconds)}`,
    );
  }
}

/**
 * Throws `Data.InvalidArgument` when a bound is NaN (it would match nothing, or everything,
 * depending on how a backend compares) or `limit` is not an integer of 0 or more. Infinite
 * bounds are valid: they are simply open (or match nothing).
 */
export function checkVersionQuery(query: VersionQuery): void {
  const { before, after, limit } = query;
  if (Number.isNaN(before) || Number.isNaN(after)) {
    throw invalidQuery('a versions query needs before and after as numbers of ms, not NaN');
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    throw invalidQuery(
      `a versions query's limit must be an integer of 0 or more, got ${String(limit)}`,
    );
  }
}

function invalidRetention(message: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidConfig, message);
}

function invalidQuery(message: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidArgument, message);
}
