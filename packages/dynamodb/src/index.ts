export {
  DynamoPresence,
  type DynamoPresenceOptions,
  PRESENCE_EXPIRY_ATTRIBUTE,
} from './dynamo-presence.js';
export { DynamoStore, type DynamoStoreOptions } from './dynamo-store.js';
export type { DynamoVersions } from './dynamo-versions.js';
export { type EnsureTableOptions, ensureTable } from './ensure-table.js';
export { classifyDynamoError, type DynamoFailureKind } from './errors.js';
export {
  NEWEST_VERSION_SEQ_ATTRIBUTE,
  NEWEST_VERSION_TIME_ATTRIBUTE,
  RECORD_ATTRIBUTE,
  REVISION_ATTRIBUTE,
} from './item-codec.js';
export { DYNAMO_MAX_RECORD_BYTES, MAX_ITEM_BYTES } from './item-size.js';
export { DEFAULT_KEY_ATTRIBUTE, type TableOptions } from './table-options.js';
export {
  VERSION_EXPIRY_ATTRIBUTE,
  VERSION_SEQ_ATTRIBUTE,
  VERSION_TIME_ATTRIBUTE,
} from './version-codec.js';
export { type DynamoVersionsOptions, defaultVersionsTableName } from './versions-options.js';
