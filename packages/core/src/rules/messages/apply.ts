/**
 * Applying an inbox on the holder, exactly once. The holder reads the inbox after its lock is
 * committed, applies what `planApply` picks, and writes the data and `recordApplied`'s ids in
 * ONE compare-and-set of the profile; only once that write is known committed does it trim
 * the inbox (`trimInbox`). A crash or a lost response between the two leaves applied messages
 * in the inbox: their ids are in the profile, so the next pass trims them without applying.
 */
import type { Inbox, InboxMessage, Receipt } from './inbox.js';
import type { InboxLimits } from './limits.js';

export interface ApplyPlan {
  /** Pending messages not yet applied, in the order they were received. */
  readonly apply: readonly InboxMessage[];
  /** Pending messages already applied (a trim that did not happen): trim, never apply. */
  readonly trim: readonly string[];
}

/** What to do with `inbox` given the ids the profile records as applied. */
export function planApply(inbox: Inbox | undefined, applied: readonly string[]): ApplyPlan {
  if (inbox === undefined || inbox.pending.length === 0) return { apply: [], trim: [] };
  const done = new Set(applied);
  const apply: InboxMessage[] = [];
  const trim: string[] = [];
  for (const message of inbox.pending) {
    if (done.has(message.id)) trim.push(message.id);
    else apply.push(message);
  }
  return { apply, trim };
}

/**
 * The applied ids the profile keeps after applying `now`: oldest first, every id that is
 * still pending in `inbox` (which must have been read after the profile's lock was taken:
 * then an applied id missing from it was trimmed for good), and the last `tail` ids besides.
 * So the window is bounded (pending ids plus `tail`) and never drops an id the inbox may still
 * hand over: dropping one would apply its message twice after a crash before the trim.
 */
export function recordApplied(
  applied: readonly string[],
  now: readonly string[],
  inbox: Inbox | undefined,
  tail: number,
): string[] {
  const seen = new Set(applied);
  const all = [...applied];
  for (const id of now) {
    if (!seen.has(id)) {
      seen.add(id);
      all.push(id);
    }
  }
  const pending = new Set(inbox?.pending.map((message) => message.id));
  const firstOfTail = all.length - tail;
  return all.filter((id, index) => index >= firstOfTail || pending.has(id));
}

/**
 * `inbox` with the messages whose ids are in `applied` moved to the receipt window (at most
 * `receiptWindow`, oldest dropped, `forgotBelow` raised above each dropped `at`), or
 * `undefined` when none is pending: then nothing is written. Pure on the inbox as stored: run
 * in the trim's compare-and-set, it keeps every message sent since the holder read it.
 */
export function trimInbox(
  inbox: Inbox | undefined,
  applied: ReadonlySet<string>,
  limits: InboxLimits,
): Inbox | undefined {
  if (inbox === undefined) return undefined;
  const pending: InboxMessage[] = [];
  const moved: Receipt[] = [];
  for (const message of inbox.pending) {
    if (applied.has(message.id)) moved.push([message.id, message.at]);
    else pending.push(message);
  }
  if (moved.length === 0) return undefined;
  const all = [...inbox.done, ...moved];
  const drop = Math.max(0, all.length - limits.receiptWindow);
  let forgotBelow = inbox.forgotBelow;
  for (let index = 0; index < drop; index += 1) {
    forgotBelow = Math.max(forgotBelow, (all[index] as Receipt)[1] + 1);
  }
  return { pending, done: all.slice(drop), forgotBelow };
}

/**
 * `inbox` with pending message `id` dropped, unapplied, by an operator (a message whose handler
 * always fails): moved to the receipt window as an applied one is, so a resend of the id is a
 * duplicate. `undefined` when `id` is not pending (applied and trimmed, dropped, never sent):
 * nothing to write. Run in the inbox's compare-and-set; it never touches the profile, so a
 * holder's pass that read the message before the drop applies it once and trims nothing more.
 */
export function dropPending(
  inbox: Inbox | undefined,
  id: string,
  limits: InboxLimits,
): Inbox | undefined {
  return trimInbox(inbox, new Set([id]), limits);
}
