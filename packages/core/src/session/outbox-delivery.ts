/**
 * Transfers between players, delivered after commit: an outbox entry is delivered only once a
 * write of the sender's profile that carries it is known committed (or the record a load took
 * holds it: a delivery a crash interrupted, which the next holder finishes). Each is one append
 * to the recipient's inbox (`deliveryOf`: its id, body, time and sender), then a nudge to the
 * recipient's holder. No lock on the recipient, no two-phase commit: the recipient applies it
 * once by its id. Queued or duplicate, the entry leaves the in-memory outbox and the sender's
 * next write carries the drop; uncertain, it is kept, marked, never delivered again.
 */
import type { DriverContext } from '../context/context.js';
import { appendToInbox, nudgeHolder } from '../context/inbox-io.js';
import { describeError } from '../ports/errors.js';
import { deliveryOf, type OutboxEntry, toDeliver } from '../rules/messages/index.js';
import type { SessionMessages } from './session-messages.js';

/** Starts delivering the entries of `outbox` (as committed) not yet delivered nor in flight. */
export function deliverOutbox(
  context: DriverContext,
  from: string,
  messages: SessionMessages,
  outbox: readonly OutboxEntry[] | undefined,
): void {
  for (const entry of toDeliver(outbox ?? [])) {
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
  let outcome: Awaited<ReturnType<typeof appendToInbox>>;
  try {
    outcome = await appendToInbox(context, entry.to, deliveryOf(from, entry));
  } catch (error) {
    // Kept: delivered again after the sender's next committed write, or by its next holder.
    context.logger.warn(
      `the transfer ${JSON.stringify(entry.id)} from ${from} to ${entry.to} was not delivered yet: ${describeError(error)}`,
    );
    return;
  }
  messages.settle(entry.id, outcome);
  if (outcome === 'uncertain') {
    context.logger.warn(
      `Data.DeliveryUncertain: the transfer ${JSON.stringify(entry.id)} from ${from} to ${entry.to} cannot be told received or not (its id left the recipient's receipt window); it is kept in the outbox, never delivered again`,
    );
    return;
  }
  await nudgeHolder(context, entry.to);
}
