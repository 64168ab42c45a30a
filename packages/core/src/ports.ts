/**
 * `@datadriver/core/ports`: what an adapter implements (the port interfaces, their errors and
 * the checks every implementation shares) and the pure rules a tool reads records with (the
 * CLI decides what a load would do through `decideLoad`, never by a rule of its own).
 */

export { DEFAULTS, defaultLockWaitSeconds } from './config/options.js';
export { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './handoff/timings.js';
export {
  type HandoffMessage,
  type RequestReason,
  requestMessage,
  TOPIC_PREFIX,
  topicOf,
} from './handoff/wire.js';
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
export type { MessageHandler, Messenger, Subscription } from './ports/messenger.js';
export type { Presence, PresenceEntry } from './ports/presence.js';
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
export { nextVersionId } from './ports/version-ids.js';
// The schema check, for tools that write data outside a driver (the CLI's restore --schema).
export {
  type DataSchema,
  isDataSchema,
  judge,
  type SchemaVerdict,
  schemaRefusal,
} from './rules/data-schema.js';
export {
  checkStoreKey,
  isWellFormed,
  isWellFormedText,
  journalKeyOf,
  journalPrefix,
  MAX_NAME_BYTES,
  MAX_TOKEN_BYTES,
  parseStoreKey,
  profilePrefix,
  type StoreKeyOwner,
  storeKeyOf,
} from './rules/keys.js';
export {
  decideLoad,
  decideRelease,
  decideSave,
  type LoadContext,
  type LoadDecision,
  type LockTimes,
  type PresenceAnswer,
  type ReleaseDecision,
  type SaveDecision,
  type TakeReason,
} from './rules/lock-rules.js';
export {
  DEFAULT_MESSAGE_LIMITS,
  MAX_MESSAGE_BYTES,
  type MessageLimits,
} from './rules/message-budget.js';
export {
  type LockInfo,
  type ProfileRecord,
  parseRecord,
  type RecordMeta,
  type TradeMarker,
  toStoreRecord,
} from './rules/record.js';
export { type LockWriter, lockedRecord, markedRecord } from './rules/record-writes.js';
export {
  decidedJournal,
  outcomeOf,
  parseJournal,
  preparedJournal,
  settledData,
  type TradeJournal,
  type TradeState,
} from './rules/trade-rules.js';
