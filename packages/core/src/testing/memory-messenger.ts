import { type JsonObject, jsonClone } from '../ports/json.js';
import type { MessageHandler, Messenger, Subscription } from '../ports/messenger.js';
import { MAX_MESSAGE_BYTES } from '../ports/messenger.js';
import { utf8Bytes } from '../rules/record-size.js';

/**
 * A message bus inside one process. Delivery is asynchronous (never inside `publish`), as
 * on a real bus; wrap it in a `FaultyMessenger` to drop, duplicate or delay messages.
 */
export class MemoryMessenger implements Messenger {
  readonly specificationVersion = 'v1';
  readonly processLocal = true;
  private readonly topics = new Map<string, Set<MessageHandler>>();

  async publish(topic: string, message: JsonObject): Promise<void> {
    const payload = JSON.stringify(message);
    // As every messenger does: an oversized payload is dropped unparsed on delivery.
    if (utf8Bytes(payload) > MAX_MESSAGE_BYTES) return;
    for (const handler of this.topics.get(topic) ?? []) {
      queueMicrotask(() => handler(jsonClone(JSON.parse(payload))));
    }
  }

  async subscribe(topic: string, handler: MessageHandler): Promise<Subscription> {
    // A wrapper per subscription, so subscribing one function twice delivers twice.
    const deliver: MessageHandler = (message) => handler(message);
    const handlers = this.topics.get(topic) ?? new Set<MessageHandler>();
    handlers.add(deliver);
    this.topics.set(topic, handlers);
    return {
      unsubscribe: async () => {
        handlers.delete(deliver);
      },
    };
  }

  /** Number of subscriptions to `topic`. */
  subscriberCount(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }
}
