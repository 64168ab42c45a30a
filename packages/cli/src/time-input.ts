/** The times a person types: `1h` (an hour ago), `90m`, `2d`, an ISO date, or epoch ms. */
import { DataDriverError, ErrorCode } from '@datadriver/core';

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `text` as ms since the epoch, a duration being counted back from `now`. */
export function parseTime(text: string, now: number, option = '--at'): number {
  const trimmed = text.trim();
  const ago = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)(?: ago)?$/.exec(trimmed);
  if (ago) return Math.round(now - Number(ago[1]) * UNIT_MS[ago[2]!]!);
  if (/^\d{10,}$/.test(trimmed)) return Number(trimmed);
  // An ISO date (UTC) or date-time (local time when it names no zone, as JavaScript reads it).
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const parsed = Date.parse(trimmed);
    if (!Number.isNaN(parsed)) return parsed;
  }
  throw new DataDriverError(
    ErrorCode.InvalidArgument,
    `${option} needs a time: a duration ago (30s, 90m, 1h, 2d), an ISO date (2025-06-01T12:00:00Z) or epoch ms; got ${JSON.stringify(text)}`,
  );
}

/** A whole number of at least `min` from an option's text. */
export function parseCount(text: string, option: string, min = 0): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${option} needs a whole number of at least ${min}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/** A positive number of seconds from an option's text. */
export function parseSeconds(text: string, option: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${option} needs a positive number of seconds, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
