/**
 * Running the game's `onMessage` over the messages a pass applies, one at a time, each on a
 * copy of the data: a handler that throws, returns a promise, or leaves a value JSON would
 * change fails its message alone. That message stays pending and the data is as it was before
 * it; the others apply. The data and the ids of the applied messages then go out in one write.
 */
import { DataDriverError, ErrorCode } from '../../ports/errors.js';
import { type JsonObject, jsonClone } from '../../ports/json.js';
import { describeJsonProblem, findJsonProblem } from '../json-problems.js';
import type { InboxMessage } from './inbox.js';

/** The game's handler, as the pass calls it: it changes `data` in place, synchronously. */
export type DataMessageHandler = (data: JsonObject, message: InboxMessage) => unknown;

export interface HandlerRun {
  /** The data after every message that applied; `data` itself when none did. */
  readonly data: JsonObject;
  /** The ids of the messages that applied, in order. */
  readonly applied: readonly string[];
  /** The messages that failed, each with its `Data.MessageFailed`. */
  readonly failed: ReadonlyArray<{ readonly id: string; readonly error: DataDriverError }>;
}

export function runHandlers(
  key: string,
  data: JsonObject,
  messages: readonly InboxMessage[],
  handler: DataMessageHandler,
): HandlerRun {
  let current = data;
  const applied: string[] = [];
  const failed: Array<{ id: string; error: DataDriverError }> = [];
  for (const message of messages) {
    const draft = jsonClone(current);
    const problem = runOne(draft, message, handler);
    if (problem === undefined) {
      current = draft;
      applied.push(message.id);
    } else {
      failed.push({ id: message.id, error: failure(key, message.id, problem) });
    }
  }
  return { data: current, applied, failed };
}

interface Problem {
  readonly why: string;
  readonly cause?: unknown;
}

function runOne(
  draft: JsonObject,
  message: InboxMessage,
  handler: DataMessageHandler,
): Problem | undefined {
  let result: unknown;
  try {
    result = handler(draft, message);
  } catch (error) {
    return { why: 'onMessage threw', cause: error };
  }
  if (isThenable(result)) {
    // The pass writes once every handler returned: a change made later would miss the write.
    return { why: 'onMessage returned a promise; it must change the data synchronously' };
  }
  const found = findJsonProblem(draft, 'data');
  if (found) return { why: `onMessage left ${describeJsonProblem(found)}` };
  return undefined;
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function failure(key: string, id: string, problem: Problem): DataDriverError {
  return new DataDriverError(
    ErrorCode.MessageFailed,
    `message ${JSON.stringify(id)} to ${key} did not apply: ${problem.why}; it stays pending`,
    { cause: problem.cause, details: { key, id } },
  );
}
