export {
  DEFAULT_PREFIX,
  RECOMMENDED_CLUSTER_OPTIONS,
  RECOMMENDED_REDIS_OPTIONS,
  type RedisAdapterOptions,
  type RedisClient,
} from './client.js';
export type { VersionKeys } from './keys.js';
export { RedisMessenger, type RedisMessengerOptions } from './redis-messenger.js';
export { RedisPresence, type RedisPresenceOptions } from './redis-presence.js';
export { REDIS_MAX_RECORD_BYTES, RedisStore, type RedisStoreOptions } from './redis-store.js';
export type { RedisVersions } from './redis-versions.js';
