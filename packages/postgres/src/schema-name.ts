/**
 * The schema every table of the adapter lives in, as an identifier quoted for SQL. Statements
 * take keys and values as parameters only; the schema's name is the one thing spliced into
 * their text, so it is checked and quoted here, once.
 */
import { DataDriverError, ErrorCode, isWellFormedText } from '@datadriver/core/ports';

/** Where the tables go unless told otherwise. */
export const DEFAULT_SCHEMA = 'datadriver';

/** PostgreSQL cuts identifiers longer than this (NAMEDATALEN - 1), so two long names could meet. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * `schema` as a quoted identifier (`"my ""odd"" schema"`), or `Data.InvalidConfig` for a name
 * PostgreSQL would refuse or silently shorten.
 */
export function quoteSchema(schema: unknown): string {
  if (
    typeof schema !== 'string' ||
    schema === '' ||
    schema.includes('\0') ||
    !isWellFormedText(schema) ||
    Buffer.byteLength(schema, 'utf8') > MAX_IDENTIFIER_BYTES
  ) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `schema must be a name of 1 to ${MAX_IDENTIFIER_BYTES} bytes without NUL, got ${JSON.stringify(schema)}`,
    );
  }
  return `"${schema.replaceAll('"', '""')}"`;
}
