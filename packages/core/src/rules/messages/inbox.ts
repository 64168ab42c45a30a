/**
 * A profile's inbox as stored (`inboxKeyOf`): the pending messages in the order they were
 * received, the receipts of the last trimmed ones (the receipt window), and a bound above the
 * senders' times the window has forgotten. Read whole and checked before any write: a value
 * that is not exactly this shape is refused with `Data.InvalidRecord` and left untouched.
 */
import { isPlainObject, type JsonObject, type JsonValue } from '../../ports/json.js';
import type { StoreRecord } from '../../ports/store.js';
import { isWellFormedText } from '../keys.js';
import type { InboxLimits } from './limits.js';
import { bodyProblem, idProblem, refusedStored } from './message-checks.js';

/** The format this build writes; a higher one is a newer build's, left untouched. */
export const INBOX_FORMAT = 1;

export interface InboxMessage {
  /** The sender's idempotency key: a purchase id, a gift id, a transfer's id. */
  readonly id: string;
  /** What the game's `onMessage` receives. */
  readonly body: JsonValue;
  /**
   * The sender's clock when the message was made, in ms (a transfer's: when its change was
   * written), the same on every run of one send and every delivery of one transfer. Every
   * append compares it with `forgotBelow`: had this very message been received and forgotten,
   * `forgotBelow` would be above its own `at`. Safety needs no clock to agree: a skewed clock
   * can make an attempt uncertain, never make one land twice.
   */
  readonly at: number;
  /** The profile key of a transfer's sender; absent for a send from outside. */
  readonly from?: string;
}

/** A trimmed message's id and `at`, as the receipt window keeps it. */
export type Receipt = readonly [id: string, at: number];

export interface Inbox {
  readonly pending: readonly InboxMessage[];
  /** Oldest first; at most `receiptWindow`. */
  readonly done: readonly Receipt[];
  /**
   * Above the `at` of every receipt the window dropped (0 while none was): a message whose `at`
   * is this or more was never forgotten, so an id not remembered was never received.
   */
  readonly forgotBelow: number;
}

export const EMPTY_INBOX: Inbox = { pending: [], done: [], forgotBelow: 0 };

const INBOX_FIELDS = new Set(['inbox', 'pending', 'done', 'forgotBelow']);
const MESSAGE_FIELDS = new Set(['id', 'body', 'at', 'from']);

/** The inbox stored under `key` (`undefined`: none yet), or `Data.InvalidRecord`. */
export function parseInbox(
  key: string,
  value: StoreRecord | undefined,
  limits: InboxLimits,
): Inbox | undefined {
  if (value === undefined) return undefined;
  const wrong = inboxProblem(value, limits);
  if (wrong !== undefined) throw refusedStored(key, wrong);
  return value as unknown as Inbox;
}

/** The record an inbox is stored as. */
export function inboxRecord(inbox: Inbox): StoreRecord {
  return {
    inbox: INBOX_FORMAT,
    pending: inbox.pending as unknown as JsonObject[],
    done: inbox.done as unknown as JsonValue[],
    forgotBelow: inbox.forgotBelow,
  };
}

/**
 * The JSON of `inboxRecord(inbox)` cut just before its pending list's closing `]`: a batch of
 * sends puts each queued message's JSON between the two, rather than stringifying the whole
 * inbox per message. Each part is stringified once; the fields in `inboxRecord`'s order.
 */
export function inboxJsonAround(inbox: Inbox): [head: string, tail: string] {
  const pending = JSON.stringify(inbox.pending);
  return [
    `{"inbox":${INBOX_FORMAT},"pending":${pending.slice(0, -1)}`,
    `],"done":${JSON.stringify(inbox.done)},"forgotBelow":${JSON.stringify(inbox.forgotBelow)}}`,
  ];
}

/** Every id the inbox has received and still remembers: pending, then the window's. */
export function receivedIds(inbox: Inbox): Set<string> {
  const ids = new Set<string>();
  for (const message of inbox.pending) ids.add(message.id);
  for (const [id] of inbox.done) ids.add(id);
  return ids;
}

function inboxProblem(value: StoreRecord, limits: InboxLimits): string | undefined {
  if (!isPlainObject(value)) return 'is not an inbox';
  if (typeof value.inbox === 'number' && value.inbox > INBOX_FORMAT) {
    return `is an inbox of format ${value.inbox}, written by a newer build`;
  }
  if (value.inbox !== INBOX_FORMAT) return 'is not an inbox';
  const unknown = Object.keys(value).find((field) => !INBOX_FIELDS.has(field));
  if (unknown !== undefined) return `has a field ${JSON.stringify(unknown)} no inbox has`;
  if (!isTime(value.forgotBelow)) return 'has a forgotBelow that is not a time in ms';
  return pendingProblem(value.pending, limits) ?? doneProblem(value, limits);
}

function pendingProblem(pending: unknown, limits: InboxLimits): string | undefined {
  if (!Array.isArray(pending)) return 'has no list of pending messages';
  if (pending.length > limits.maxPending) {
    return `holds ${pending.length} pending messages, over the ${limits.maxPending} an inbox keeps`;
  }
  for (let index = 0; index < pending.length; index += 1) {
    const wrong = messageProblem(pending[index], `pending[${index}]`, limits);
    if (wrong !== undefined) return `has ${wrong}`;
  }
  return undefined;
}

function messageProblem(value: unknown, path: string, limits: InboxLimits): string | undefined {
  if (!isPlainObject(value)) return `a ${path} that is not a message`;
  const unknown = Object.keys(value).find((field) => !MESSAGE_FIELDS.has(field));
  if (unknown !== undefined) return `a ${path} with a field ${JSON.stringify(unknown)}`;
  const id = idProblem(value.id, limits);
  if (id !== undefined) return `a ${path}.id that ${id}`;
  if (!Object.hasOwn(value, 'body')) return `a ${path} without a body`;
  const body = bodyProblem(value.body, `${path}.body`);
  if (body !== undefined) return body;
  if (!isTime(value.at)) return `a ${path}.at that is not a time in ms`;
  if (value.from !== undefined && !isWellFormedText(value.from)) {
    return `a ${path}.from that is not a profile key`;
  }
  return undefined;
}

function doneProblem(value: Record<string, unknown>, limits: InboxLimits): string | undefined {
  const { done } = value;
  if (!Array.isArray(done)) return 'has no receipt window';
  if (done.length > limits.receiptWindow) {
    return `remembers ${done.length} ids, over its window of ${limits.receiptWindow}`;
  }
  const ids = new Set<string>();
  for (const message of value.pending as Array<{ id: string }>) {
    if (ids.has(message.id)) return `has the id ${JSON.stringify(message.id)} twice`;
    ids.add(message.id);
  }
  for (let index = 0; index < done.length; index += 1) {
    const receipt: unknown = done[index];
    if (!Array.isArray(receipt) || receipt.length !== 2 || !isTime(receipt[1])) {
      return `has a done[${index}] that is not an [id, time] receipt`;
    }
    const id = idProblem(receipt[0], limits);
    if (id !== undefined) return `has a done[${index}] id that ${id}`;
    if (ids.has(receipt[0])) return `has the id ${JSON.stringify(receipt[0])} twice`;
    ids.add(receipt[0]);
  }
  return undefined;
}

/** A time in ms as a sender's clock gives it: a safe integer of 0 or more. */
function isTime(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
