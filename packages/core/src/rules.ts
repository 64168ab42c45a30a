/**
 * `@datadriver/core/rules`: the pure rules a tool decides with, as the driver does: what a
 * load, save or release would do to a record, how records and trade journals are read and
 * written, the store-key layout, the handoff's wire format, and the defaults. The CLI decides
 * through these, never by a rule of its own.
 */
export { DEFAULTS, defaultLockWaitSeconds } from './config/options.js';
export { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './handoff/timings.js';
export {
  checkKickMessage,
  type HandoffMessage,
  MAX_KICK_MESSAGE_LENGTH,
  type RequestReason,
  requestMessage,
  TOPIC_PREFIX,
  topicOf,
} from './handoff/wire.js';
// The schema check, for tools that write data outside a driver (the CLI's restore --schema).
export {
  type DataSchema,
  isDataSchema,
  judge,
  type SchemaVerdict,
  schemaRefusal,
} from './rules/data-schema.js';
export {
  inboxKeyOf,
  inboxPrefix,
  journalKeyOf,
  journalPrefix,
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
export { DEFAULT_MESSAGE_LIMITS, type MessageLimits } from './rules/message-budget.js';
// A profile's inbox as the inspector reads it, and an operator's drop of one pending message.
export { dropPending } from './rules/messages/apply.js';
export {
  type Inbox,
  type InboxMessage,
  inboxRecord,
  parseInbox,
} from './rules/messages/inbox.js';
export { type InboxLimits, limitsFor } from './rules/messages/limits.js';
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
