/**
 * Transfers between players: `profile.send(toKey, body, { id })` adds an entry to the
 * sender's outbox, in the same in-memory state as the sender's change, so whichever write
 * carries one carries both. Once that write is known committed, the entry is delivered to the
 * recipient's inbox (`appendMessage` on `deliveryOf`), and dropped from the outbox by the
 * sender's next write; a holder that finds entries on load delivers them again, the same way:
 * a copy that landed is a duplicate, one the recipient may have forgotten is uncertain.
 */
import { DataDriverError, ErrorCode } from '../../ports/errors.js';
import type { JsonValue } from '../../ports/json.js';
import { checkProfileKey } from '../keys.js';
import type { InboxMessage } from './inbox.js';
import type { InboxLimits } from './limits.js';
import { checkedMessage, type SendOutcome } from './send.js';

export interface OutboxEntry {
  /** The recipient's profile key (same driver). */
  readonly to: string;
  readonly id: string;
  readonly body: JsonValue;
  /** The sender's clock when the change was made: the delivered message's `at`. */
  readonly at: number;
  /**
   * Set when a redelivery could not tell whether the recipient received it (its id left the
   * recipient's receipt window): kept, never delivered again, shown to an operator.
   */
  readonly uncertain?: true;
}

/**
 * `outbox` with `entry` added, or the typed error of the first problem (a bad id, recipient,
 * body or size; an id already in the outbox; a full outbox); the caller changes nothing.
 */
export function addToOutbox(
  from: string,
  outbox: readonly OutboxEntry[],
  entry: OutboxEntry,
  limits: InboxLimits,
): OutboxEntry[] {
  checkProfileKey(entry.to);
  if (entry.to === from) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a transfer needs another profile as its recipient, not ${from} itself; nothing was changed`,
    );
  }
  const message = checkedMessage(deliveryOf(from, entry), limits);
  if (outbox.some((queued) => queued.id === message.id)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `the outbox of ${from} already holds a transfer with id ${JSON.stringify(message.id)}; nothing was changed`,
      { details: { key: from, id: message.id } },
    );
  }
  if (outbox.length >= limits.maxOutbox) {
    throw new DataDriverError(
      ErrorCode.OutboxFull,
      `the outbox of ${from} holds ${outbox.length} undelivered transfers, its most; nothing was changed`,
      { details: { key: from, maxOutbox: limits.maxOutbox } },
    );
  }
  return [...outbox, { to: entry.to, id: message.id, body: message.body, at: message.at }];
}

/** The message an outbox entry delivers: its id, body and time, from the sending profile. */
export function deliveryOf(from: string, entry: OutboxEntry): InboxMessage {
  return { id: entry.id, body: entry.body, at: entry.at, from };
}

/** The entries still to deliver (not uncertain), in the order they were added. */
export function toDeliver(outbox: readonly OutboxEntry[]): OutboxEntry[] {
  return outbox.filter((entry) => entry.uncertain !== true);
}

/**
 * `outbox` after a delivery of entry `id` answered `outcome`: queued or duplicate, the entry
 * is done and dropped; uncertain, it is kept and marked.
 */
export function settleDelivery(
  outbox: readonly OutboxEntry[],
  id: string,
  outcome: SendOutcome['outcome'],
): OutboxEntry[] {
  if (outcome !== 'uncertain') return outbox.filter((entry) => entry.id !== id);
  return outbox.map((entry) => (entry.id === id ? { ...entry, uncertain: true } : entry));
}
