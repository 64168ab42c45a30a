/**
 * The `versions` option of DynamoStore and ensureTable: the retention, and the table that holds
 * the versions. Checked once at construction, so a typo fails before the first player joins.
 */
import {
  checkVersionRetention,
  DataDriverError,
  ErrorCode,
  type VersionRetention,
} from '@datadriver/core/ports';
import { isTableName } from './table-options.js';

/** Versions kept in a second table; see the README's "Versions" section. */
export interface DynamoVersionsOptions extends VersionRetention {
  /**
   * The table holding the versions (default: the store's table name with `-versions` appended).
   * Its partition key is the store's key attribute (string) and its sort key `time` (number).
   */
  readonly tableName?: string;
}

/** The retention and table as the store uses them. */
export interface VersionsSettings {
  readonly tableName: string;
  /** Versions kept per key; `undefined` for no count limit. */
  readonly keep: number | undefined;
  /** Versions older than this are not served (and expire by TTL); `undefined` for no limit. */
  readonly maxAgeMs: number | undefined;
}

/** The versions table of store table `tableName` when none is named. */
export function defaultVersionsTableName(tableName: string): string {
  return `${tableName}-versions`;
}

export function checkVersionsOptions(
  storeTable: string,
  options: DynamoVersionsOptions,
): VersionsSettings {
  if (typeof options !== 'object' || options === null) {
    invalid(`versions must be an object ({ keep?, maxAgeSeconds?, tableName? })`);
  }
  const { keep, maxAgeSeconds } = options;
  const tableName = options.tableName ?? defaultVersionsTableName(storeTable);
  if (!isTableName(tableName)) {
    invalid(
      `versions.tableName must be 3 to 255 letters, digits, _ - or ., got ${String(tableName)}`,
    );
  }
  if (tableName === storeTable) {
    invalid(`versions.tableName must differ from the store's table ${storeTable}`);
  }
  checkVersionRetention(options);
  const maxAgeMs = maxAgeSeconds === undefined ? undefined : Math.max(1, maxAgeSeconds * 1000);
  return { tableName, keep, maxAgeMs };
}

function invalid(message: string): never {
  throw new DataDriverError(ErrorCode.InvalidConfig, message);
}
