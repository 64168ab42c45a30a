/**
 * What every messenger does with a payload it received: a JSON object comes out, anything else
 * is dropped. An oversized payload is dropped unparsed, so a flood of them costs a byte count.
 */
import { isPlainObject, type JsonObject } from './json.js';
import { MAX_MESSAGE_BYTES } from './messenger.js';

/** A JSON object from a payload, or `undefined` for anything else (an oversized one unparsed). */
export function parseMessage(payload: string): JsonObject | undefined {
  if (Buffer.byteLength(payload, 'utf8') > MAX_MESSAGE_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(payload);
    return isPlainObject(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}
