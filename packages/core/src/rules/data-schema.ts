/**
 * The driver's `schema`, any Standard Schema (zod, valibot, arktype...): a profile's data is
 * checked against it after defaults and migrations on load, and before each write of a
 * session's data. The schema checks and never rewrites: its output is not stored, so the data
 * stays exactly as the game wrote it. A refusal names the failing paths, never the values
 * (they are player data) nor the schema's messages (some quote the value).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { DataDriverError, ErrorCode, nameSome } from '../ports/errors.js';
import { pathOf } from './json-problems.js';

/** A Standard Schema whose output is the profile's data type. */
export type DataSchema<T = unknown> = StandardSchemaV1<unknown, T>;

/** The failing paths (`data.coins`, `data.items[2]`), or `undefined` when the data passes. */
export type SchemaVerdict = readonly string[] | undefined;

/** Paths named in a refusal's message; the rest are counted. */
export const MAX_NAMED_PATHS = 8;
/** A path longer than this (a key the size of a record) is cut in the message. */
const MAX_PATH_CHARS = 200;

/** True for a value that implements Standard Schema v1 (an object or, like arktype's, a function). */
export function isDataSchema(value: unknown): value is DataSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  if (typeof props !== 'object' || props === null) return false;
  const { version, validate } = props as { version?: unknown; validate?: unknown };
  return version === 1 && typeof validate === 'function';
}

/**
 * The schema's verdict on `data`: at once for a synchronous schema, as a promise for an
 * asynchronous one. A schema that throws or answers with something other than a result is
 * refused with `Data.InvalidData` too: data it cannot vouch for is not loaded or written.
 */
export function judge(
  schema: DataSchema,
  key: string,
  data: unknown,
): SchemaVerdict | Promise<SchemaVerdict> {
  let result: unknown;
  try {
    result = schema['~standard'].validate(data);
  } catch (error) {
    throw schemaFailed(key, error);
  }
  if (isThenable(result)) {
    return Promise.resolve(result).then(
      (settled) => verdictOf(key, settled),
      (error: unknown) => {
        throw schemaFailed(key, error);
      },
    );
  }
  return verdictOf(key, result);
}

/** `Data.InvalidData` for data that fails the schema, naming the paths; `outcome` says what was kept. */
export function schemaRefusal(
  key: string,
  paths: readonly string[],
  outcome: string,
): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidData,
    `the data of ${key} does not match the schema at ${nameSome(paths, MAX_NAMED_PATHS)}; ${outcome}`,
    { details: { key, paths } },
  );
}

/** Throws the refusal when `verdict` names failing paths. */
export function enforce(key: string, verdict: SchemaVerdict, outcome: string): void {
  if (verdict !== undefined) throw schemaRefusal(key, verdict, outcome);
}

function verdictOf(key: string, result: unknown): SchemaVerdict {
  if (typeof result !== 'object' || result === null) {
    throw schemaFailed(key, new TypeError('its validate returned no result object'));
  }
  const { issues } = result as { issues?: unknown };
  if (issues === undefined) return undefined;
  if (!Array.isArray(issues) || issues.length === 0) return ['data'];
  return [...new Set(issues.map(issuePath))];
}

function issuePath(issue: unknown): string {
  const segments = (issue as { path?: unknown } | null)?.path;
  let path = 'data';
  if (!Array.isArray(segments)) return path;
  for (const segment of segments) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    path = typeof key === 'number' || typeof key === 'string' ? pathOf(path, key) : `${path}[?]`;
    if (path.length > MAX_PATH_CHARS) return `${path.slice(0, MAX_PATH_CHARS)}…`;
  }
  return path;
}

function schemaFailed(key: string, error: unknown): DataDriverError {
  // The schema's own message may quote the value: it stays in `cause`, out of the message.
  return new DataDriverError(
    ErrorCode.InvalidData,
    `the schema threw while checking the data of ${key}; the data was neither loaded nor written`,
    { cause: error, details: { key } },
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
