/**
 * How a port-level topic (`CKHandoff_<jobId>`) is addressed on the one shared Pub/Sub topic:
 * each message carries it in an attribute, and each server's subscription filters on it.
 */
import { randomBytes } from 'node:crypto';
import { DataDriverError, ErrorCode } from '@datadriver/core';

/** The message attribute naming the port-level topic a message is addressed to. */
export const TOPIC_ATTRIBUTE = 'datadriver_topic';

/** Google's limit on a subscription filter. */
const MAX_FILTER_BYTES = 256;
/** Google's limit on a subscription id. */
const MAX_ID_LENGTH = 255;
const SUFFIX_LENGTH = 8;

/**
 * The port-level topic in the characters Pub/Sub allows in a resource id (letters, digits,
 * `-_.~+%`). Used as the attribute value too, so a filter never has to escape a quote.
 */
export function encodeTopic(topic: string): string {
  return encodeURIComponent(topic).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The subscription filter that selects the messages addressed to `topic`. */
export function filterFor(topic: string): string {
  const filter = `attributes.${TOPIC_ATTRIBUTE} = "${encodeTopic(topic)}"`;
  if (Buffer.byteLength(filter) > MAX_FILTER_BYTES) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `topic ${topic} is too long for a Pub/Sub subscription filter (${MAX_FILTER_BYTES} bytes at most)`,
    );
  }
  return filter;
}

/**
 * A new subscription id for `topic`: the prefix, the topic (cut to fit) for people reading
 * the console, and a random suffix, so two subscriptions to one topic each get every message.
 */
export function subscriptionIdFor(prefix: string, topic: string): string {
  const suffix = randomBytes(SUFFIX_LENGTH / 2).toString('hex');
  const room = MAX_ID_LENGTH - prefix.length - suffix.length - 1;
  return `${prefix}${encodeTopic(topic).slice(0, room)}-${suffix}`;
}
