/**
 * A send: one message appended to a profile's inbox, inside the inbox key's compare-and-set.
 * Pure: the inbox as stored in, what to write (or that nothing is to be written) out. A bad
 * message, a full inbox or an oversized one throws a typed error from inside the transform,
 * so nothing is written.
 */

import { DataDriverError, ErrorCode } from '../../ports/errors.js';
import { recordJson } from '../../ports/record-json.js';
import type { StoreRecord } from '../../ports/store.js';
import { isWellFormedText } from '../keys.js';
import { utf8Bytes } from '../record-size.js';
import { EMPTY_INBOX, type Inbox, type InboxMessage, inboxRecord } from './inbox.js';
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

/** `message` appended to `inbox` (`undefined`: none stored yet), or why not. */
export function appendMessage(
  key: string,
  inbox: Inbox | undefined,
  message: InboxMessage,
  limits: InboxLimits,
): SendOutcome {
  const stored = checkedMessage(message, limits);
  const current = inbox ?? EMPTY_INBOX;
  if (current.pending.some((item) => item.id === stored.id)) {
    return { outcome: 'duplicate', pending: true };
  }
  if (current.done.some(([id]) => id === stored.id)) {
    return { outcome: 'duplicate', pending: false };
  }
  if (stored.at < current.forgotBelow) return { outcome: 'uncertain' };
  if (current.pending.length >= limits.maxPending) {
    throw inboxFull(key, `it holds ${current.pending.length} pending messages, its most`, {
      pending: current.pending.length,
      maxPending: limits.maxPending,
    });
  }
  const next: Inbox = { ...current, pending: [...current.pending, stored] };
  const record = inboxRecord(next);
  const bytes = utf8Bytes(recordJson(record));
  if (bytes > limits.maxInboxBytes) {
    throw inboxFull(key, `it would be ${bytes} bytes, over its ${limits.maxInboxBytes}`, {
      bytes,
      maxBytes: limits.maxInboxBytes,
    });
  }
  return { outcome: 'queued', inbox: next, record };
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
