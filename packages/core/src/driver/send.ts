/**
 * `DataDriver.send`: a message to a profile this process need not hold, exactly once by its
 * id. One `update` of the profile's inbox (`appendMessage`), which resolves once the message is
 * durable, shared with this driver's other sends to that profile that overlap it (`InboxWriter`);
 * then one `get` of the profile and, when a server holds it, a nudge to that server
 * (`{ T: "M", D, K }`), not awaited, once per write that queued a message. It never loads, locks or kicks. The order matters: a load
 * takes its lock then reads the inbox, a send writes the inbox then reads the lock, so either
 * the load's pass sees the message or the sender sees the new holder.
 */
import type { DriverContext } from '../context/context.js';
import { appendToInbox } from '../context/inbox-io.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { JsonValue } from '../ports/json.js';
import { checkProfileKey } from '../rules/keys.js';
import { checkedMessage, limitsFor } from '../rules/messages/index.js';

export interface SendOptions {
  /**
   * The sender's idempotency key (a purchase's receipt id, a gift's id): a send with an id the
   * profile already received is a no-op that resolves `duplicate`.
   */
  readonly id: string;
}

/** What a send did: `queued` (now in the inbox) or `duplicate` (received before, not again). */
export interface SendResult {
  readonly outcome: 'queued' | 'duplicate';
}

export async function send(
  context: DriverContext,
  key: string,
  body: unknown,
  options: SendOptions,
): Promise<SendResult> {
  checkProfileKey(key);
  const limits = limitsFor(context.store.maxRecordBytes);
  // Checked before any write: a bad id, body or size is a typed error with nothing written.
  const message = checkedMessage(
    { id: options?.id, body: body as JsonValue, at: context.scheduler.now() },
    limits,
  );
  const outcome = await appendToInbox(context, key, message);
  if (outcome === 'uncertain') {
    throw new DataDriverError(
      ErrorCode.DeliveryUncertain,
      `the inbox of ${key} has forgotten messages as recent as this one, so it cannot tell whether ${JSON.stringify(message.id)} was received; nothing was written`,
      { details: { key, id: message.id } },
    );
  }
  context.emit({ type: 'message.sent', key, id: message.id, outcome });
  return { outcome };
}
