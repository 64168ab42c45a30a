/**
 * The two I/O steps of getting messages into a profile's inbox, shared by `DataDriver.send`
 * and an outbox's delivery: the driver's overlapping appends to one key go out together
 * (`InboxWriter`) in one `update` of the inbox (`appendMessages`: each message duplicate,
 * uncertain, queued or refused), then, when that write queued any, one `get` of the profile and
 * a nudge to its holder, never failing the caller.
 */
import { describeError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import {
  appendMessages,
  type BatchedSend,
  type InboxMessage,
  limitsFor,
  parseInbox,
  type SendBatch,
  type SendOutcome,
} from '../rules/messages/index.js';
import { parseRecord } from '../rules/record.js';
import type { DriverContext } from './context.js';

/**
 * `message` (checked already) appended to `key`'s inbox: what the last run of its batch's
 * update said of it, or the typed error of its refusal or of the batch's write.
 */
export async function appendToInbox(
  context: DriverContext,
  key: string,
  message: InboxMessage,
): Promise<SendOutcome['outcome']> {
  const result = await context.inboxWriter.append(key, message, (batch) =>
    writeBatch(context, key, batch),
  );
  if (result.outcome === 'refused') throw result.error;
  return result.outcome;
}

/** One `update` of `key`'s inbox for `messages`, then one nudge if any was queued. */
async function writeBatch(
  context: DriverContext,
  key: string,
  messages: readonly InboxMessage[],
): Promise<readonly BatchedSend[]> {
  const limits = limitsFor(context.store.maxRecordBytes);
  const inboxKey = context.keys.inbox(key);
  let batch: SendBatch | undefined;
  try {
    await context.store.update(inboxKey, (current) => {
      batch = appendMessages(key, parseInbox(inboxKey, current, limits), messages, limits);
      return batch.record;
    });
  } catch (error) {
    throw toDataDriverError(error, ErrorCode.BackendFailed, `send to ${key} failed`);
  }
  const { results } = batch as SendBatch;
  if (results.some((result) => result.outcome === 'queued')) {
    context.background.track(nudgeHolder(context, key));
  }
  return results;
}

/**
 * Tells `key`'s holder, if any, that a message is pending: in process when it is held here,
 * else on the bus (`HandoffLink.nudge`). A failure is logged at debug level: the holder finds
 * the message at its next autosave.
 */
async function nudgeHolder(context: DriverContext, key: string): Promise<void> {
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
