/**
 * A send: one message appended to a profile's inbox, inside the inbox key's compare-and-set;
 * a batch of them (`appendMessages`: the overlapping sends of one driver to one profile) as
 * the same sends one after another. Pure: the inbox as stored in, what to write (or that
 * nothing is to be written) out. A bad message, a full inbox or an oversized one is a typed
 * error, and nothing of that message is written.
 */

import { DataDriverError, ErrorCode } from '../../ports/errors.js';
import { withRecordJson } from '../../ports/record-json.js';
import type { StoreRecord } from '../../ports/store.js';
import { isWellFormedText } from '../keys.js';
import { utf8Bytes } from '../record-size.js';
import {
  EMPTY_INBOX,
  type Inbox,
  type InboxMessage,
  inboxJsonAround,
  inboxRecord,
} from './inbox.js';
import type { InboxLimits } from './limits.js';
import { checkMessageBody, checkMessageId, checkMessageSize } from './message-checks.js';

/**
 * What a send did. `duplicate`: the id is pending (`pending: true`) or was applied and is
 * still in the receipt window; nothing is written. `uncertain`: the id is not remembered, but
 * the window has forgotten a message as recent as this one (`at < forgotBelow`), so this one
 * may have been received and forgotten; nothing is written. A send from outside then rejects
 * (`Data.DeliveryUncertain`); a transfer is kept in its sender's outbox for an operator.
 *
 * Every attempt is checked, the first one too: an update a caller stopped waiting for may
 * still run its transform later (a store's own retries), after the window forgot a copy that
 * a later attempt delivered. Its `at` is the one of the first attempt, so the check catches it.
 */
export type SendOutcome =
  | {
      readonly outcome: 'queued';
      readonly inbox: Inbox;
      /**
       * What the transform returns: the record measured here, whose JSON the store then takes
       * from `recordJson`'s one slot rather than stringifying the inbox a second time.
       */
      readonly record: StoreRecord;
    }
  | { readonly outcome: 'duplicate'; readonly pending: boolean }
  | { readonly outcome: 'uncertain' };

/** `message` appended to `inbox` (`undefined`: none stored yet), or why not: a batch of one. */
export function appendMessage(
  key: string,
  inbox: Inbox | undefined,
  message: InboxMessage,
  limits: InboxLimits,
): SendOutcome {
  const batch = appendMessages(key, inbox, [message], limits);
  const result = batch.results[0] as BatchedSend;
  if (result.outcome === 'refused') throw result.error;
  if (result.outcome !== 'queued') return result;
  return { outcome: 'queued', inbox: batch.inbox as Inbox, record: batch.record as StoreRecord };
}

/**
 * One message's part in a batch (`appendMessages`): what a lone send of it would have said at
 * that point, or the typed error it would have thrown (`refused`: its message is not written,
 * the others of the batch still are).
 */
export type BatchedSend =
  | { readonly outcome: 'queued' }
  | { readonly outcome: 'duplicate'; readonly pending: boolean }
  | { readonly outcome: 'uncertain' }
  | { readonly outcome: 'refused'; readonly error: DataDriverError };

export interface SendBatch {
  /** One per message, in the batch's order. */
  readonly results: readonly BatchedSend[];
  /** The inbox with every queued message; `undefined` when none was. */
  readonly inbox: Inbox | undefined;
  /**
   * What the transform returns: `inbox` as a record, its JSON (built from the JSON of the inbox
   * read and of each message queued) kept in `recordJson`'s slot for the store's write;
   * `undefined` when nothing is to be written.
   */
  readonly record: StoreRecord | undefined;
}

const QUEUED: BatchedSend = { outcome: 'queued' };

/**
 * `messages` appended to `inbox` in their order, in one write: exactly what the same sends made
 * one after another would do, each seeing the inbox the ones before it left (an id twice is a
 * pending duplicate the second time; the message that would overflow the inbox is refused with
 * `Data.InboxFull` while a later, smaller one may still fit). The inbox is stringified once,
 * not once per message: each message's bytes are added to the inbox's as it is queued.
 */
export function appendMessages(
  key: string,
  inbox: Inbox | undefined,
  messages: readonly InboxMessage[],
  limits: InboxLimits,
): SendBatch {
  const current = inbox ?? EMPTY_INBOX;
  const pendingIds = new Set(current.pending.map((item) => item.id));
  const doneIds = new Set(current.done.map(([id]) => id));
  const pending = [...current.pending];
  const added: string[] = [];
  const [head, tail] = inboxJsonAround(current);
  let bytes = utf8Bytes(head) + utf8Bytes(tail);
  const append = (message: InboxMessage): BatchedSend => {
    const stored = checkedMessage(message, limits);
    if (pendingIds.has(stored.id)) return { outcome: 'duplicate', pending: true };
    if (doneIds.has(stored.id)) return { outcome: 'duplicate', pending: false };
    if (stored.at < current.forgotBelow) return { outcome: 'uncertain' };
    if (pending.length >= limits.maxPending) {
      throw inboxFull(key, `it holds ${pending.length} pending messages, its most`, {
        pending: pending.length,
        maxPending: limits.maxPending,
      });
    }
    const json = JSON.stringify(stored);
    // A comma before it unless it is the first pending message.
    const next = bytes + utf8Bytes(json) + (pending.length > 0 ? 1 : 0);
    if (next > limits.maxInboxBytes) {
      throw inboxFull(key, `it would be ${next} bytes, over its ${limits.maxInboxBytes}`, {
        bytes: next,
        maxBytes: limits.maxInboxBytes,
      });
    }
    pending.push(stored);
    pendingIds.add(stored.id);
    added.push(json);
    bytes = next;
    return QUEUED;
  };
  const results = messages.map((message): BatchedSend => {
    try {
      return append(message);
    } catch (error) {
      // A typed refusal is this message's alone; anything else is a defect, the batch's.
      if (!DataDriverError.isInstance(error)) throw error;
      return { outcome: 'refused', error };
    }
  });
  if (added.length === 0) return { results, inbox: undefined, record: undefined };
  const next: Inbox = { ...current, pending };
  const comma = current.pending.length > 0 ? ',' : '';
  const json = `${head}${comma}${added.join(',')}${tail}`;
  return { results, inbox: next, record: withRecordJson(inboxRecord(next), json) };
}

/**
 * The message as the inbox stores it, fields in one order, or the typed error of its first
 * problem: `Data.InvalidArgument` (id, time, sender), `Data.InvalidData` (body),
 * `Data.TooLarge` (size).
 */
export function checkedMessage(message: InboxMessage, limits: InboxLimits): InboxMessage {
  const id = checkMessageId(message.id, limits);
  const body = checkMessageBody(message.body);
  if (!Number.isSafeInteger(message.at) || message.at < 0) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a message's time must be ms since the epoch, got ${String(message.at)}; nothing was written`,
    );
  }
  if (message.from !== undefined && !isWellFormedText(message.from)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      "a message's sender must be a profile key; nothing was written",
    );
  }
  const stored: InboxMessage =
    message.from === undefined
      ? { id, body, at: message.at }
      : { id, body, at: message.at, from: message.from };
  checkMessageSize(stored, limits);
  return stored;
}

function inboxFull(key: string, why: string, details: Record<string, unknown>): DataDriverError {
  return new DataDriverError(
    ErrorCode.InboxFull,
    `the inbox of ${key} is full: ${why}; nothing was written`,
    { details: { key, ...details } },
  );
}
