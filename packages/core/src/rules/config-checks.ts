/**
 * How a configuration object is checked: every key known (an unknown one is most often a typo
 * of one that is, so its nearest known key is named), every value of its type, and a message
 * that says what was given ("got a string").
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainObject } from '../ports/json.js';

export function invalidConfig(message: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidConfig, message);
}

/** What a value is, for a message: `a string ("20")`, `a number (5)`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `a ${typeof value} (${String(value)})`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return 'an object';
  }
}

/**
 * The known key `name` is most likely a typo of: one it starts with or that starts with it, or
 * the nearest within a few edits (case aside).
 */
export function nearestKey(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const other = key.toLowerCase();
    const prefix = lower.startsWith(other) || other.startsWith(lower);
    const distance = prefix ? 0 : editDistance(lower, other);
    if (best === undefined || distance < best.distance) best = { key, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(2, Math.floor(best.key.length / 4)) ? best.key : undefined;
}

/** Refuses the first own key of `value` that `known` lacks, naming the nearest known one. */
export function checkKnownKeys(value: object, known: readonly string[], prefix = ''): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = nearestKey(key, known);
    throw invalidConfig(
      near === undefined
        ? `unknown option ${prefix}${key}; the options are ${known.map((k) => prefix + k).join(', ')}`
        : `unknown option ${prefix}${key} (did you mean ${prefix}${near}?)`,
    );
  }
}

/** An optional boolean option (`false` when unset), or `Data.InvalidConfig` naming it. */
export function checkFlag(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw invalidConfig(`${name} must be true or false, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * `value` as an object of options, or `Data.InvalidConfig` saying what it is; `undefined`
 * passes when the option is optional.
 */
export function checkOptionObject(
  value: unknown,
  name: string,
  what: string,
): asserts value is Record<string, unknown> | undefined {
  if (value !== undefined && !isPlainObject(value)) {
    throw invalidConfig(`${name} must be ${what}, got ${describeValue(value)}`);
  }
}

/** Refuses `value` unless it is undefined or an object with each of `methods`. */
export function checkImplements(value: unknown, name: string, methods: readonly string[]): void {
  if (value === undefined) return;
  const missing =
    typeof value === 'object' && value !== null
      ? methods.filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function')
      : methods;
  if (missing.length > 0) {
    const got =
      typeof value === 'object' && value !== null
        ? `no ${missing.join(', ')}`
        : describeValue(value);
    throw invalidConfig(`${name} must have ${methods.join(', ')}, got ${got}`);
  }
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + cost));
    }
    row = next;
  }
  return row[b.length]!;
}

/** True when `a` and `b` hold the same value under every key of `a` (resolved settings). */
export function sameFields<T extends object>(a: T, b: T): boolean {
  return (Object.keys(a) as Array<keyof T>).every((key) => a[key] === b[key]);
}

/** A number-of-seconds option (`fallback` when unset), or `Data.InvalidConfig` naming it. */
export function checkSeconds(
  name: string,
  value: unknown,
  fallback: number,
  positive = false,
): number {
  const chosen = value ?? fallback;
  if (
    typeof chosen !== 'number' ||
    !Number.isFinite(chosen) ||
    chosen < 0 ||
    (positive && chosen === 0)
  ) {
    throw invalidConfig(
      `${name} must be a ${positive ? 'positive' : 'non-negative'} number of seconds, got ${describeValue(value)}`,
    );
  }
  return chosen;
}
