/**
 * `restore --schema <module>`: the game's Standard Schema, imported from the module the person
 * names, judges a kept version's data before anything is locked or written. The CLI knows no
 * game's defaults or migrations, so it judges the data exactly as `restore` would write it.
 * The check and its refusal are core's (`judge`, `schemaRefusal`): the paths are named as a
 * driver names them (`data.coins`, `data.items[1].count`), never the values nor the schema's
 * own messages, which may quote player data.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';
import { type DataSchema, isDataSchema, judge, schemaRefusal } from '@datadriver/core/rules';

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
  const schema = [module.default, module.schema].find(isDataSchema);
  if (!schema) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--schema ${path} exports no Standard Schema v1 (as default or as \`schema\`); nothing was touched`,
    );
  }
  return schema;
}

/**
 * Refuses with `Data.InvalidData`, naming the failing paths, when `data` (the version of `key`
 * written at `at`) fails `schema`. Judged on a copy: the schema never holds or changes what
 * is written.
 */
export async function checkSchema(
  schema: DataSchema,
  key: string,
  at: string,
  data: unknown,
): Promise<void> {
  const paths = await judge(schema, key, structuredClone(data));
  if (paths !== undefined) {
    throw schemaRefusal(key, paths, `the version of ${at} was not restored; nothing was written`);
  }
}
