/**
 * What a profile's record keeps of its messages, in `meta.messages`: the ids it applied
 * (`recordApplied`'s window) and its outbox. Written only inside the profile's own
 * compare-and-set, so an applied message's effect and its id always travel together. A build
 * that predates messages carries `meta.messages` over untouched (`record-writes.ts` keeps a
 * newer writer's meta fields), and applies nothing.
 */
import { isPlainObject, type JsonObject } from '../../ports/json.js';
import { isWellFormedText } from '../keys.js';
import type { InboxLimits } from './limits.js';
import { bodyProblem, idProblem, refusedStored } from './message-checks.js';
import type { OutboxEntry } from './outbox.js';

export interface ProfileMessages {
  /** Oldest first: the pending ids the inbox may still hand over, and the last few besides. */
  readonly applied: readonly string[];
  readonly outbox: readonly OutboxEntry[];
}

export const NO_PROFILE_MESSAGES: ProfileMessages = { applied: [], outbox: [] };

const FIELDS = new Set(['applied', 'outbox']);
const ENTRY_FIELDS = new Set(['to', 'id', 'body', 'at', 'uncertain']);

/** `meta.messages` of the record under `key` (absent: none), or `Data.InvalidRecord`. */
export function parseProfileMessages(
  key: string,
  value: unknown,
  limits: InboxLimits,
): ProfileMessages {
  if (value === undefined) return NO_PROFILE_MESSAGES;
  const wrong = profileMessagesProblem(value, limits);
  if (wrong !== undefined) throw refusedStored(key, `has ${wrong}`);
  return value as ProfileMessages;
}

/** `meta.messages` as written: `undefined` (the field left out) when there is nothing. */
export function profileMessagesMeta(messages: ProfileMessages): JsonObject | undefined {
  if (messages.applied.length === 0 && messages.outbox.length === 0) return undefined;
  return {
    applied: [...messages.applied],
    outbox: messages.outbox as unknown as JsonObject[],
  };
}

/** What is wrong with a stored `meta.messages` (`parseRecord` reads it), or `undefined`. */
export function profileMessagesProblem(value: unknown, limits: InboxLimits): string | undefined {
  if (!isPlainObject(value)) return 'a meta.messages that is not an object';
  const unknown = Object.keys(value).find((field) => !FIELDS.has(field));
  if (unknown !== undefined) return `a meta.messages field ${JSON.stringify(unknown)}`;
  return appliedProblem(value.applied, limits) ?? outboxProblem(value.outbox, limits);
}

function appliedProblem(applied: unknown, limits: InboxLimits): string | undefined {
  if (!Array.isArray(applied)) return 'a meta.messages.applied that is not a list';
  const most = limits.maxPending + limits.appliedTail;
  if (applied.length > most) {
    return `${applied.length} applied ids in meta.messages, over the ${most} a profile keeps`;
  }
  const seen = new Set<string>();
  for (let index = 0; index < applied.length; index += 1) {
    const id: unknown = applied[index];
    const wrong = idProblem(id, limits);
    if (wrong !== undefined) return `a meta.messages.applied[${index}] that ${wrong}`;
    if (seen.has(id as string)) return `the applied id ${JSON.stringify(id)} twice`;
    seen.add(id as string);
  }
  return undefined;
}

function outboxProblem(outbox: unknown, limits: InboxLimits): string | undefined {
  if (!Array.isArray(outbox)) return 'a meta.messages.outbox that is not a list';
  if (outbox.length > limits.maxOutbox) {
    return `${outbox.length} transfers in meta.messages.outbox, over its ${limits.maxOutbox}`;
  }
  const seen = new Set<string>();
  for (let index = 0; index < outbox.length; index += 1) {
    const path = `meta.messages.outbox[${index}]`;
    const entry: unknown = outbox[index];
    if (!isPlainObject(entry)) return `a ${path} that is not a transfer`;
    const unknown = Object.keys(entry).find((field) => !ENTRY_FIELDS.has(field));
    if (unknown !== undefined) return `a ${path} with a field ${JSON.stringify(unknown)}`;
    if (!isWellFormedText(entry.to)) return `a ${path}.to that is not a profile key`;
    const id = idProblem(entry.id, limits);
    if (id !== undefined) return `a ${path}.id that ${id}`;
    if (seen.has(entry.id as string)) return `the transfer id ${JSON.stringify(entry.id)} twice`;
    seen.add(entry.id as string);
    if (!Object.hasOwn(entry, 'body')) return `a ${path} without a body`;
    const body = bodyProblem(entry.body, `${path}.body`);
    if (body !== undefined) return body;
    if (!Number.isSafeInteger(entry.at) || (entry.at as number) < 0) {
      return `a ${path}.at that is not a time in ms`;
    }
    if (entry.uncertain !== undefined && entry.uncertain !== true) {
      return `a ${path}.uncertain that is not true`;
    }
  }
  return undefined;
}
