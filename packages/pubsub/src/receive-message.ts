import {
  describeError,
  isPlainObject,
  type Logger,
  MAX_MESSAGE_BYTES,
  type MessageHandler,
} from '@datadriver/core/ports';
import type { Message } from '@google-cloud/pubsub';
import { encodeTopic, TOPIC_ATTRIBUTE } from './addressing.js';

/** What a received message is checked against and handed to. */
export interface Route {
  readonly topic: string;
  readonly subscriptionId: string;
  readonly handler: MessageHandler;
  readonly logger: Logger;
}

type Received = Pick<Message, 'id' | 'attributes' | 'data' | 'ack' | 'nack'>;

/** The payload as published, or undefined when it is not a JSON object. */
function parsePayload(data: Buffer): Record<string, unknown> | undefined {
  if (data.length > MAX_MESSAGE_BYTES) return undefined; // dropped unparsed
  try {
    const value: unknown = JSON.parse(data.toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the handler; false (with a warning) when it threw. */
function handled(payload: Record<string, unknown>, message: Received, route: Route): boolean {
  try {
    route.handler(payload);
    return true;
  } catch (error) {
    route.logger.warn(
      `the handler of ${route.topic} threw on Pub/Sub message ${message.id}; nacked for redelivery: ${describeError(error)}`,
    );
    return false;
  }
}

/**
 * Hands one message to the handler and settles it. Every message is acknowledged, except
 * when the handler throws: then it is nacked and Pub/Sub redelivers it (after the
 * subscription's retry backoff), until a delivery succeeds or the retention drops it.
 */
export function receiveMessage(message: Received, route: Route): void {
  // Google's emulator ignores subscription filters, so the address is checked again here.
  const addressed = message.attributes[TOPIC_ATTRIBUTE] === encodeTopic(route.topic);
  const payload = addressed ? parsePayload(message.data) : undefined;
  if (payload === undefined) {
    const why = addressed
      ? `for ${route.topic} is not a JSON object`
      : `is not addressed to ${route.topic}`;
    route.logger.debug(
      `Pub/Sub message ${message.id} on ${route.subscriptionId} ${why}; acknowledged and ignored`,
    );
    message.ack();
  } else if (handled(payload, message, route)) {
    message.ack();
  } else {
    message.nack();
  }
}
