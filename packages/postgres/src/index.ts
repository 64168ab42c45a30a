export { type EnsureSchemaOptions, ensureSchema } from './ensure-schema.js';
export { codeOf, toPostgresError } from './errors.js';
export { PostgresMessenger, type PostgresMessengerOptions } from './postgres-messenger.js';
export { PostgresPresence, type PostgresPresenceOptions } from './postgres-presence.js';
export {
  POSTGRES_MAX_RECORD_BYTES,
  PostgresStore,
  type PostgresStoreOptions,
} from './postgres-store.js';
export type { PostgresVersions } from './postgres-versions.js';
export { DEFAULT_SCHEMA } from './schema-name.js';
export { schemaSql } from './schema-sql.js';
