/**
 * The store's version retention, checked once at construction and turned into the parameters
 * the statements take: a count and an age in ms, each `null` when unset.
 */
import { checkVersionRetention, type VersionRetention } from '@datadriver/core/ports';

export interface RetentionParams {
  readonly keep: number | null;
  readonly maxAgeMs: number | null;
}

/** The parameters of `retention`; rejects (core's check) a count or age not positive. */
export function retentionParams(retention: VersionRetention): RetentionParams {
  checkVersionRetention(retention);
  const { keep, maxAgeSeconds } = retention;
  return {
    keep: keep ?? null,
    maxAgeMs: maxAgeSeconds === undefined ? null : Math.max(1, Math.round(maxAgeSeconds * 1000)),
  };
}
