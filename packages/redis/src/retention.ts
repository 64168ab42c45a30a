/**
 * The store's version retention, checked once at construction and turned into the two script
 * arguments every versions script takes: a count and an age in ms, each '' when unset.
 */
import { checkVersionRetention, type VersionRetention } from '@datadriver/core/ports';

/** `[keep, maxAgeMs]` as script arguments; '' means no limit of that kind. */
export type RetentionArgs = readonly [keep: string, maxAgeMs: string];

/** The script arguments of `retention`; rejects (core's check) a count or age not positive. */
export function retentionArgs(retention: VersionRetention): RetentionArgs {
  checkVersionRetention(retention);
  const { keep, maxAgeSeconds } = retention;
  // Whole milliseconds: the scripts set a key's expiry with PEXPIREAT, which takes integers.
  const maxAgeMs =
    maxAgeSeconds === undefined ? '' : String(Math.max(1, Math.round(maxAgeSeconds * 1000)));
  return [keep === undefined ? '' : String(keep), maxAgeMs];
}
