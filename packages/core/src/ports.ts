/**
 * `@datadriver/core/ports`: what an adapter implements and shares: the port interfaces, their
 * errors, JSON values, and the checks every implementation shares. The rules a tool decides
 * with are in `@datadriver/core/rules`.
 */
export { consoleLogger } from './ports/console-logger.js';
export {
  DataDriverError,
  type DataDriverErrorOptions,
  describeError,
  ErrorCode,
  toDataDriverError,
} from './ports/errors.js';
export type { Host, HostPlayer } from './ports/host.js';
export { HostListeners } from './ports/host-listeners.js';
export { isPlainObject, type JsonObject, type JsonValue } from './ports/json.js';
export type { Logger } from './ports/logger.js';
export { MessageFanOut, type MessageFanOutOptions } from './ports/message-fan-out.js';
export {
  MAX_MESSAGE_BYTES,
  type MessageHandler,
  type Messenger,
  type Subscription,
} from './ports/messenger.js';
export { parseMessage } from './ports/parse-message.js';
export { type Presence, type PresenceEntry, presenceEntry } from './ports/presence.js';
export { recordJson } from './ports/record-json.js';
export type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';
export type {
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  StoreVersion,
  StoreVersions,
  UpdateOptions,
  VersionQuery,
  VersionRetention,
} from './ports/store.js';
export {
  checkMaxRecordBytes,
  checkVersionQuery,
  checkVersionRetention,
} from './ports/store-checks.js';
export { SystemScheduler } from './ports/system-scheduler.js';
export { nextVersionId } from './ports/unique-ids.js';
// The key checks every store shares: a key must cross any backend unchanged.
export {
  checkStoreKey,
  isWellFormed,
  isWellFormedText,
  MAX_NAME_BYTES,
  MAX_TOKEN_BYTES,
} from './rules/keys.js';
