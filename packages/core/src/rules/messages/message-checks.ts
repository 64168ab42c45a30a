/**
 * What a message may be, checked before anything is written: an id the inbox can compare
 * (well-formed, at most `maxIdBytes`), a body that survives JSON unchanged (no lone surrogate
 * either, which a backend would store as U+FFFD), and a size under `maxMessageBytes`. The same
 * checks read a stored inbox, so a hostile record is refused with the sender's words.
 */
import { DataDriverError, ErrorCode } from '../../ports/errors.js';
import type { JsonValue } from '../../ports/json.js';
import { describeJsonProblem, findJsonProblem, MAX_DATA_DEPTH } from '../json-problems.js';
import { isWellFormed, isWellFormedText, tooLong } from '../keys.js';
import { utf8Bytes } from '../record-size.js';
import type { InboxLimits } from './limits.js';

/** Why `id` cannot name a message, or `undefined`. */
export function idProblem(id: unknown, limits: InboxLimits): string | undefined {
  if (!isWellFormedText(id)) return 'must be a non-empty string of well-formed UTF-16';
  return tooLong(id, limits.maxIdBytes);
}

/** `id`, or `Data.InvalidArgument` naming what is wrong; nothing was written. */
export function checkMessageId(id: unknown, limits: InboxLimits): string {
  const problem = idProblem(id, limits);
  if (problem !== undefined) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `a message id ${problem}; nothing was written`,
      { details: { maxBytes: limits.maxIdBytes } },
    );
  }
  return id as string;
}

/** The first problem of a body: a value JSON would change, or a string JSON would not keep. */
export function bodyProblem(body: unknown, root: string): string | undefined {
  const json = findJsonProblem(body, root, MAX_DATA_DEPTH);
  if (json) return describeJsonProblem(json);
  const text = illFormedText(body, root);
  return text === undefined
    ? undefined
    : `${text} holds a lone surrogate, which a store would change`;
}

/** `body` as a JSON value, or `Data.InvalidData` naming its path; nothing was written. */
export function checkMessageBody(body: unknown): JsonValue {
  const problem = bodyProblem(body, 'message');
  if (problem !== undefined) {
    throw new DataDriverError(
      ErrorCode.InvalidData,
      `the message cannot be sent: ${problem}; nothing was written`,
    );
  }
  return body as JsonValue;
}

/**
 * The error of a stored value refused: `Data.InvalidRecord`, the value left untouched. The same
 * words as `record.ts`'s own (not exported there yet: one helper for both once wired).
 */
export function refusedStored(key: string, what: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.InvalidRecord,
    `the value stored under ${key} ${what}; it was left untouched`,
    { details: { key } },
  );
}

/** `Data.TooLarge` when `stored` (one message as it goes into the inbox) is over the limit. */
export function checkMessageSize(stored: object, limits: InboxLimits): void {
  const bytes = utf8Bytes(JSON.stringify(stored));
  if (bytes > limits.maxMessageBytes) {
    throw new DataDriverError(
      ErrorCode.TooLarge,
      `the message would be ${bytes} bytes as JSON, over the ${limits.maxMessageBytes} a message may take; nothing was written`,
      { details: { bytes, maxBytes: limits.maxMessageBytes } },
    );
  }
}

/**
 * The path of the first string or key under `value` that is not well-formed UTF-16. Called
 * after `findJsonProblem` passed, so `value` is plain JSON at most `MAX_DATA_DEPTH` deep.
 */
function illFormedText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = illFormedText(value[index], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isWellFormed(key)) return `${path} (a key)`;
    const found = illFormedText(item, `${path}[${JSON.stringify(key)}]`);
    if (found) return found;
  }
  return undefined;
}
