/**
 * `@datadriver/core`: what a game uses. The ports an adapter implements and the rules a tool
 * reads are in `@datadriver/core/ports`; the in-memory backend, faults and the virtual clock
 * in `@datadriver/core/testing`.
 */

export {
  type DataDriverOptions,
  DEFAULT_KICK_MESSAGES,
  DEFAULTS,
  type KickMessages,
  type MessageHandler,
  type MessageTarget,
  type ProfileMessage,
  type SchemaDriverOptions,
} from './config/options.js';
export {
  type CloseResult,
  DataDriver,
  type DriverHealth,
  type LoadOptions,
  type ProfileView,
} from './driver/data-driver.js';
export type { SendOptions, SendResult } from './driver/send.js';
export { describeEvent } from './events/event-stream.js';
export type {
  DataDriverEvent,
  DataDriverEventType,
  EventListener,
  ReleaseReason,
  SaveReason,
} from './events/events.js';
export { Handoff, type HandoffOptions, type PresenceRead } from './handoff/handoff.js';
export type { HandoffSigning } from './handoff/signing.js';
export { DEFAULT_TIMINGS, type HandoffTimings, scaleTimings } from './handoff/timings.js';
export type { AttachOptions } from './holder/player-sessions.js';
export { consoleLogger } from './ports/console-logger.js';
export { DataDriverError, ErrorCode } from './ports/errors.js';
export type { JsonObject, JsonValue } from './ports/json.js';
// The ports a game passes in; an adapter finds all it needs of them in /ports.
export type {
  Host,
  HostPlayer,
  Logger,
  Messenger,
  Presence,
  Scheduler,
  Store,
} from './ports.js';
export type { DataSchema } from './rules/data-schema.js';
export type { TakeReason } from './rules/lock-rules.js';
export type { MessageLimits } from './rules/message-budget.js';
export type { Migration } from './rules/migrations.js';
export type { PresenceAnswerName } from './rules/park-length.js';
export type { LockInfo } from './rules/record.js';
export type { RequestAction } from './rules/request-rules.js';
export type { WaitReason } from './rules/same-server.js';
export { Profile } from './session/profile.js';
