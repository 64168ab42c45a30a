/**
 * A message pass on the holder, exactly once (docs/contributing/messages-design.md): read the
 * inbox after the lock is committed, run `onMessage` on each message not yet applied (each on a
 * copy of the data), write the data and the applied ids in ONE compare-and-set of the profile
 * (the session's usual save), and only once that write is known committed, trim the inbox. It
 * runs inside the session's write queue, so no save, release or trade write interleaves.
 */
import type { DriverContext } from '../context/context.js';
import type { SaveReason } from '../events/events.js';
import { ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import {
  type InboxLimits,
  inboxRecord,
  limitsFor,
  parseInbox,
  planApply,
  recordApplied,
  runHandlers,
  trimInbox,
} from '../rules/messages/index.js';
import { replaceContents } from './replace-contents.js';
import type { SessionMessages } from './session-messages.js';

/** Why a pass runs: at load (before `onLoad`), on a sender's nudge, or before an autosave. */
export type PassReason = 'load' | 'nudge' | 'autosave';

/** What a pass reads and changes of its session. */
export interface PassOwner {
  readonly key: string;
  data: JsonObject;
  /** What `onMessage` receives as the profile: its `data` reads the owner's. */
  readonly profile: object;
  readonly messages: SessionMessages;
}

/** What the queue lends a pass: the session's save, run inside the queue it already holds. */
export interface PassIo {
  save(reason: SaveReason): Promise<void>;
  /** The applied ids as the store last acknowledged them (a lost response's are not). */
  durableApplied(): readonly string[];
}

/**
 * One pass. Resolves true when it saved (then an autosave needs no save of its own); a failed
 * read or trim is warned and leaves the messages for a later pass; a failed save rejects, as
 * any save of the session does (reported as `profile.save-failed`).
 */
export async function messagePass(
  context: DriverContext,
  owner: PassOwner,
  io: PassIo,
  reason: PassReason,
  may: () => boolean = () => true,
): Promise<boolean> {
  const handler = context.messageHandlers.current;
  if (handler === undefined) return false;
  const limits = limitsFor(context.store.maxRecordBytes);
  const inboxKey = context.keys.inbox(owner.key);
  let plan: ReturnType<typeof planApply>;
  let inbox: ReturnType<typeof parseInbox>;
  try {
    inbox = parseInbox(inboxKey, await context.store.get(inboxKey), limits);
    plan = planApply(inbox, owner.messages.current.applied);
  } catch (error) {
    inboxFailed(context, owner.key, 'read', error);
    return false;
  }
  // A trade that began during the read took its copies of the data before these effects: its
  // commit would drop them. They wait for a pass after the trade.
  if (!may()) return false;
  for (const id of owner.messages.duplicates(plan.trim)) {
    context.emit({ type: 'message.duplicate', key: owner.key, id });
  }
  // A message that failed in this session is tried again at autosaves, not on every nudge.
  const apply =
    reason === 'nudge'
      ? plan.apply.filter((message) => !owner.messages.failed(message.id))
      : plan.apply;
  const data = owner.data;
  const run = runHandlers(owner.key, data, apply, (draft, message) => {
    owner.data = draft;
    try {
      const result = handler(owner.profile as never, message) as unknown;
      // A handler that set `profile.data` to a new object: its draft is that object.
      if (owner.data !== draft) replaceContents(draft, owner.data);
      return result;
    } finally {
      owner.data = data;
    }
  });
  for (const { id, error } of run.failed) {
    const first = owner.messages.fail(id);
    context.emit({ type: 'message.failed', key: owner.key, id, error, first });
  }
  const { messages } = owner;
  if (run.applied.length > 0) {
    // In place: a game holding `profile.data` keeps the object the effects went into.
    replaceContents(data, run.data);
    const applied = recordApplied(messages.current.applied, run.applied, inbox, limits.appliedTail);
    messages.current = { ...messages.current, applied };
    messages.applied(run.applied); // reported once a write carrying them commits
  }
  const durable = new Set(io.durableApplied());
  const unsaved = plan.trim.some((id) => !durable.has(id));
  const saves = run.applied.length > 0 || unsaved || reason === 'autosave';
  if (saves) await io.save(reason === 'autosave' ? 'autosave' : 'message');
  await trim(
    context,
    owner.key,
    new Set(io.durableApplied()),
    [...plan.trim, ...run.applied],
    limits,
  );
  return saves;
}

/** Moves the messages whose ids a committed write recorded to the receipt window. */
async function trim(
  context: DriverContext,
  key: string,
  durable: ReadonlySet<string>,
  ids: readonly string[],
  limits: InboxLimits,
): Promise<void> {
  const done = new Set(ids.filter((id) => durable.has(id)));
  if (done.size === 0) return;
  const inboxKey = context.keys.inbox(key);
  try {
    await context.store.update(inboxKey, (current) => {
      const next = trimInbox(parseInbox(inboxKey, current, limits), done, limits);
      return next === undefined ? undefined : inboxRecord(next);
    });
  } catch (error) {
    // Idempotent: the next pass finds these applied and trims them then.
    inboxFailed(context, key, 'trim', error);
  }
}

function inboxFailed(
  context: DriverContext,
  key: string,
  step: 'read' | 'trim',
  error: unknown,
): void {
  const failure = toDataDriverError(error, ErrorCode.BackendFailed, `the inbox of ${key}`);
  context.emit({ type: 'message.inbox-failed', key, step, error: failure });
}
