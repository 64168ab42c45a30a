export { acquire, MAX_RUNS_PER_ATTEMPT } from './acquire.js';
export { consoleLogger } from './console-logger.js';
export { type CloseResult, DataDriver, type LoadOptions } from './data-driver.js';
export {
  DataDriverError,
  type DataDriverErrorOptions,
  describeError,
  ErrorCode,
  toDataDriverError,
} from './errors.js';
export {
  type DataDriverEvent,
  type DataDriverEventType,
  describeEvent,
  type EventListener,
  type PresenceAnswerName,
  type RequestAction,
  type SaveReason,
  type WaitReason,
} from './events.js';
export { Handoff, type HandoffClient, type HandoffOptions } from './handoff.js';
export { type HandoffRuleInput, handoffByDefault } from './handoff-rule.js';
export { isPlainObject, type JsonObject, type JsonValue, jsonClone } from './json.js';
export { type FaultKind, type FaultSpec, Faults, type InjectedFault } from './memory/faults.js';
export {
  FaultyMessenger,
  type FaultyOptions,
  FaultyPresence,
  FaultyStore,
} from './memory/faulty-ports.js';
export { MemoryHost, type MemoryPlayer } from './memory/memory-host.js';
export { MemoryMessenger } from './memory/memory-messenger.js';
export { MemoryPresence } from './memory/memory-presence.js';
export {
  MEMORY_MAX_RECORD_BYTES,
  MemoryStore,
  type MemoryStoreOptions,
} from './memory/memory-store.js';
export { MemoryVersions } from './memory/memory-versions.js';
export {
  type DataDriverOptions,
  DEFAULT_KICK_MESSAGES,
  DEFAULTS,
  defaultLockWaitSeconds,
  type KickMessages,
} from './options.js';
export type { AttachOptions } from './player-sessions.js';
export type { Host, HostPlayer } from './ports/host.js';
export {
  checkMaxRecordBytes,
  checkStoreKey,
  isWellFormed,
  isWellFormedText,
} from './ports/key-checks.js';
export type { Logger } from './ports/logger.js';
export type { MessageHandler, Messenger, Subscription } from './ports/messenger.js';
export type { Presence, PresenceEntry } from './ports/presence.js';
export type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';
export type {
  Store,
  StoreRecord,
  StoreTransform,
  StoreVersion,
  StoreVersions,
  UpdateOptions,
  VersionQuery,
  VersionRetention,
} from './ports/store.js';
export { checkVersionQuery, checkVersionRetention } from './ports/version-checks.js';
export { Profile } from './profile.js';
export { MAX_REQUESTERS_PER_KEY } from './release-requests.js';
export * from './rules/index.js';
export { Signal, sleep, within } from './signal.js';
export { type HandoffSigning, type SignatureCheck, Signer } from './signing.js';
export {
  type SetTimer,
  SystemScheduler,
  type SystemSchedulerOptions,
} from './system-scheduler.js';
export { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings, scaleTimings } from './timings.js';
export { JOURNAL_DELETE_MAX_MS } from './trade.js';
export { VirtualClock } from './virtual-clock.js';
export {
  type HandoffMessage,
  type HandoffReply,
  type HandoffRequest,
  parseHandoffMessage,
  replyMessage,
  requestMessage,
  TOPIC_PREFIX,
  topicOf,
} from './wire.js';
