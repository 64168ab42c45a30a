/**
 * Transfers between players, delivered after commit: an outbox entry is delivered only once a
 * write of the sender's profile that carries it is known committed (or the record a load took
 * holds it: a delivery a crash interrupted, which the next holder finishes). Each is one append
 * to the recipient's inbox (`deliveryOf`: its id, body, time and sender), in one write with
 * this driver's other sends to that profile that overlap it, then a nudge to the recipient's
 * holder. No lock on the recipient, no two-phase commit: the recipient applies it once by id. Queued or duplicate, the entry leaves the in-memory outbox and the sender's
 * next write carries the drop; uncertain, it is kept, marked, never delivered again.
 */
import type { DriverContext } from '../context/context.js';
import { appendToInbox } from '../context/inbox-io.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import {
  deliveryOf,
  type OutboxEntry,
  type ProfileMessages,
  toDeliver,
} from '../rules/messages/index.js';
import { NO_IDS, type SessionMessages } from './session-messages.js';

/**
 * A write of `from`'s session committed, recording `committed` (its record's messages): the ids
 * it records as applied are reported once (`message.applied`), and its outbox is delivered.
 */
export function afterCommit(
  context: DriverContext,
  from: string,
  messages: SessionMessages,
  committed: ProfileMessages | undefined,
): void {
  const applied = messages.committed(committed?.applied ?? NO_IDS);
  if (applied.length > 0) context.emit({ type: 'message.applied', key: from, ids: applied });
  deliverOutbox(context, from, messages, committed?.outbox);
}

/** Starts delivering the entries of `outbox` (as committed) not yet delivered nor in flight. */
export function deliverOutbox(
  context: DriverContext,
  from: string,
  messages: SessionMessages,
  outbox: readonly OutboxEntry[] | undefined,
): void {
  // Most writes carry no outbox: no list is made for them.
  if (outbox === undefined || outbox.length === 0) return;
  for (const entry of toDeliver(outbox)) {
    if (!messages.startDelivery(entry.id)) continue;
    const delivery = deliverOne(context, from, messages, entry).finally(() =>
      messages.endDelivery(entry.id),
    );
    context.background.track(delivery);
  }
}

async function deliverOne(
  context: DriverContext,
  from: string,
  messages: SessionMessages,
  entry: OutboxEntry,
): Promise<void> {
  const { id, to } = entry;
  let outcome: Awaited<ReturnType<typeof appendToInbox>>;
  try {
    outcome = await appendToInbox(context, to, deliveryOf(from, entry));
  } catch (error) {
    // Kept: delivered again after the sender's next committed write, or by its next holder.
    const failure = toDataDriverError(error, ErrorCode.BackendFailed, `delivery to ${to} failed`);
    context.emit({ type: 'message.delivery-failed', key: from, to, id, error: failure });
    return;
  }
  messages.settle(id, outcome);
  if (outcome === 'uncertain') {
    const error = new DataDriverError(
      ErrorCode.DeliveryUncertain,
      `the transfer ${JSON.stringify(id)} from ${from} to ${to} cannot be told received or not (its id left the recipient's receipt window); it is kept in the outbox, never delivered again`,
      { details: { key: from, to, id } },
    );
    context.emit({ type: 'message.delivery-failed', key: from, to, id, error });
    return;
  }
  context.emit({ type: 'message.delivered', key: from, to, id, outcome });
}
