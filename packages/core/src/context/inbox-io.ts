/**
 * The two I/O steps of getting a message into a profile's inbox, shared by `DataDriver.send`
 * and an outbox's delivery: one `update` of the inbox (`appendMessage`: duplicate, uncertain or
 * queued), then one `get` of the profile and a nudge to its holder, never failing the caller.
 */
import { describeError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import {
  appendMessage,
  type InboxMessage,
  limitsFor,
  parseInbox,
  type SendOutcome,
} from '../rules/messages/index.js';
import { parseRecord } from '../rules/record.js';
import type { DriverContext } from './context.js';

/** `message` (checked already) appended to `key`'s inbox: what the last run of the update said. */
export async function appendToInbox(
  context: DriverContext,
  key: string,
  message: InboxMessage,
): Promise<SendOutcome['outcome']> {
  const limits = limitsFor(context.store.maxRecordBytes);
  const inboxKey = context.keys.inbox(key);
  let outcome: SendOutcome | undefined;
  try {
    await context.store.update(inboxKey, (current) => {
      outcome = appendMessage(key, parseInbox(inboxKey, current, limits), message, limits);
      return outcome.outcome === 'queued' ? outcome.record : undefined;
    });
  } catch (error) {
    throw toDataDriverError(error, ErrorCode.BackendFailed, `send to ${key} failed`);
  }
  return (outcome as SendOutcome).outcome;
}

/**
 * Tells `key`'s holder, if any, that a message is pending: in process when it is held here,
 * else on the bus (`HandoffLink.nudge`). A failure is logged at debug level: the holder finds
 * the message at its next autosave.
 */
export async function nudgeHolder(context: DriverContext, key: string): Promise<void> {
  try {
    const record = parseRecord(key, await context.store.get(context.keys.store(key)));
    const holder = record?.meta.lock?.jobId;
    if (holder === undefined) return;
    if (holder === context.identity.jobId && context.messageHandlers.nudgeHere(key)) return;
    await context.link.nudge(key, holder);
  } catch (error) {
    context.logger.debug(`no nudge for ${key}'s message: ${describeError(error)}`);
  }
}
