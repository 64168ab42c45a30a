import type { JsonObject } from './json.js';

/**
 * The largest message a messenger delivers, in UTF-8 bytes of its JSON payload (Roblox's
 * MessagingService: 1 kB). A messenger drops a larger payload unparsed, before `JSON.parse`,
 * so an oversized flood costs a byte count, not a parse.
 */
export const MAX_MESSAGE_BYTES = 1024;

/** Receives a message as published; its shape is not checked by the messenger. */
export type MessageHandler = (message: unknown) => void;

export interface Subscription {
  /** Stops delivery to this handler. Idempotent. */
  unsubscribe(): Promise<void>;
}

/**
 * The message bus that carries handoff requests and replies between servers.
 *
 * Delivery is at least once and unordered: a message may arrive twice, late, or after a
 * message published after it, and consumers must treat all of these as harmless. A message
 * published while nobody is subscribed to its topic may be lost.
 *
 * Failures: `publish` rejects when the message was not accepted (it may still be delivered,
 * if the response was lost); `subscribe` rejects when the subscription could not be made.
 * Rejections are `DataDriverError`s with the vendor error as `cause`.
 */
export interface Messenger {
  readonly specificationVersion: 'v1';
  /** True when messages never leave this process (the in-memory messenger). */
  readonly processLocal?: boolean;
  publish(topic: string, message: JsonObject): Promise<void>;
  subscribe(topic: string, handler: MessageHandler): Promise<Subscription>;
}
