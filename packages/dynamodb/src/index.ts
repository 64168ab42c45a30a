export {
  DynamoPresence,
  type DynamoPresenceOptions,
  PRESENCE_EXPIRY_ATTRIBUTE,
} from './dynamo-presence.js';
export { DynamoStore, type DynamoStoreOptions } from './dynamo-store.js';
export { type EnsureTableOptions, ensureTable } from './ensure-table.js';
export { classifyDynamoError, type DynamoFailureKind } from './errors.js';
export { RECORD_ATTRIBUTE, REVISION_ATTRIBUTE } from './item-codec.js';
export { MAX_ITEM_BYTES } from './item-size.js';
export { DEFAULT_KEY_ATTRIBUTE, type TableOptions } from './table-options.js';
