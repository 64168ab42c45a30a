/**
 * `restore --schema <module>`: the game's Standard Schema, imported from the module the person
 * names, judges a kept version's data before anything is locked or written. The CLI knows no
 * game's defaults or migrations, so it judges the data exactly as `restore` would write it.
 * The paths are named as core names them (`data.coins`, `data.items[1].count`), never the
 * values nor the schema's own messages: they are player data.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DataSchema } from '@datadriver/core';
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';

/** Paths named in a refusal's message; `details.paths` holds every one. */
const MAX_NAMED_PATHS = 8;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The module's default export, or its export `schema`, when it is a Standard Schema v1. */
export async function importSchema(path: string): Promise<DataSchema> {
  let module: { readonly default?: unknown; readonly schema?: unknown };
  try {
    module = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--schema ${path} could not be imported; nothing was touched`,
      { cause: error },
    );
  }
  const schema = [module.default, module.schema].find(isStandardSchema);
  if (!schema) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--schema ${path} exports no Standard Schema v1 (as default or as \`schema\`); nothing was touched`,
    );
  }
  return schema;
}

/** Refuses with `Data.InvalidData`, naming the failing paths, when `data` fails `schema`. */
export async function checkSchema(
  schema: DataSchema,
  what: string,
  key: string,
  data: unknown,
): Promise<void> {
  let result: unknown;
  try {
    // A copy: the schema never holds or changes the data that is written.
    result = await schema['~standard'].validate(structuredClone(data));
  } catch (error) {
    throw schemaFailed(what, key, error);
  }
  if (typeof result !== 'object' || result === null) {
    throw schemaFailed(what, key, new TypeError('its validate returned no result object'));
  }
  const { issues } = result as { readonly issues?: unknown };
  if (issues === undefined) return;
  const paths =
    Array.isArray(issues) && issues.length > 0 ? [...new Set(issues.map(issuePath))] : ['data'];
  const named = paths.slice(0, MAX_NAMED_PATHS).join(', ');
  const more = paths.length > MAX_NAMED_PATHS ? ` and ${paths.length - MAX_NAMED_PATHS} more` : '';
  throw new DataDriverError(
    ErrorCode.InvalidData,
    `${what} does not match the schema at ${named}${more}; nothing was written`,
    { details: { key, paths } },
  );
}

function issuePath(issue: unknown): string {
  const segments = (issue as { readonly path?: unknown } | null)?.path;
  let path = 'data';
  if (!Array.isArray(segments)) return path;
  for (const segment of segments) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') path += `[${key}]`;
    else if (typeof key !== 'string') path += '[?]';
    else path += IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }
  return path;
}

function schemaFailed(what: string, key: string, error: unknown): DataDriverError {
  // The schema's own message may quote the value: it stays in `cause`, out of the message.
  return new DataDriverError(
    ErrorCode.InvalidData,
    `the schema threw while checking ${what}; nothing was written`,
    { cause: error, details: { key } },
  );
}

function isStandardSchema(value: unknown): value is DataSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } })['~standard'];
  return props?.version === 1 && typeof props.validate === 'function';
}
