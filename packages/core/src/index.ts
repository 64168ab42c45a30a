/**
 * `@datadriver/core`: what a game uses. The ports an adapter implements and the rules a tool
 * reads are in `@datadriver/core/ports`; the in-memory backend, faults and the virtual clock
 * in `@datadriver/core/testing`.
 */
export { consoleLogger } from './console-logger.js';
export { type CloseResult, DataDriver, type LoadOptions } from './data-driver.js';
export { DataDriverError, ErrorCode } from './errors.js';
export { describeEvent } from './event-stream.js';
export type {
  DataDriverEvent,
  DataDriverEventType,
  EventListener,
  PresenceAnswerName,
  RequestAction,
  SaveReason,
  WaitReason,
} from './events.js';
export { Handoff, type HandoffOptions } from './handoff.js';
export type { AttachOptions } from './holder/player-sessions.js';
export type { JsonObject, JsonValue } from './json.js';
export {
  type DataDriverOptions,
  DEFAULT_KICK_MESSAGES,
  DEFAULTS,
  type KickMessages,
  type SchemaDriverOptions,
} from './options.js';
// The ports a game passes in; an adapter finds all it needs of them in /ports.
export type {
  Host,
  HostPlayer,
  Logger,
  Messenger,
  Presence,
  Scheduler,
  Store,
} from './ports/index.js';
export { Profile } from './profile.js';
export type { DataSchema } from './rules/data-schema.js';
export type { TakeReason } from './rules/lock-rules.js';
export type { MessageLimits } from './rules/message-budget.js';
export type { Migration } from './rules/migrations.js';
export type { LockInfo } from './rules/record.js';
export type { HandoffSigning } from './signing.js';
export { DEFAULT_TIMINGS, type HandoffTimings, scaleTimings } from './timings.js';
