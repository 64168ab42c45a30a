import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DataDriverError, ErrorCode } from '@datadriver/core';

/** Where records live: the user's own client, a table, and its partition key attribute. */
export interface TableOptions {
  /**
   * Your own `DynamoDBClient` (SDK v3), configured as you like; the README lists settings
   * that suit DataDriver (a request timeout, `maxAttempts`).
   */
  readonly client: DynamoDBClient;
  /** The table, created by `ensureTable()` or the README's CloudFormation snippet. */
  readonly tableName: string;
  /** The table's partition key, a string attribute (default `pk`); no sort key. */
  readonly keyAttribute?: string;
}

/** The partition key attribute when none is named. */
export const DEFAULT_KEY_ATTRIBUTE = 'pk';

/** Checks the table options at construction, so a typo fails before the first player joins. */
export function checkTableOptions(options: TableOptions): Required<TableOptions> {
  const { client, tableName, keyAttribute = DEFAULT_KEY_ATTRIBUTE } = options;
  if (typeof client?.send !== 'function') invalid('client must be a DynamoDBClient');
  if (!isTableName(tableName)) {
    invalid(`tableName must be 3 to 255 letters, digits, _ - or ., got ${String(tableName)}`);
  }
  if (typeof keyAttribute !== 'string' || keyAttribute.length === 0) {
    invalid('keyAttribute must be a non-empty string');
  }
  return { client, tableName, keyAttribute };
}

/** DynamoDB's own rule for table names: 3 to 255 of a-z, A-Z, 0-9, _ - and . */
export function isTableName(name: unknown): name is string {
  return typeof name === 'string' && /^[\w.-]{3,255}$/.test(name);
}

/** A count option: a non-negative integer, or the default when unset. */
export function checkCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    invalid(`${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

function invalid(message: string): never {
  throw new DataDriverError(ErrorCode.InvalidConfig, message);
}
