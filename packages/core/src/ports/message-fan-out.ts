/**
 * The subscriber side every messenger on a pub/sub backend repeats: which handlers listen on
 * which channel, and handing each payload that arrives on a channel to every one of them. The
 * adapter keeps only the translation: the command that listens to a channel, and the one that
 * stops (`release`, called when a channel's last handler leaves).
 *
 * A payload that is not a JSON object is dropped with a debug line; each handler gets its own
 * parsed copy, as from separate deliveries; a handler that throws is logged and keeps neither
 * the others nor the connection from their messages.
 */
import { describeError } from './errors.js';
import type { Logger } from './logger.js';
import type { MessageHandler, Subscription } from './messenger.js';
import { parseMessage } from './parse-message.js';

export interface MessageFanOutOptions {
  /** Gets the debug line of a dropped payload and the error of a handler that threw. */
  readonly logger: Logger;
  /**
   * Called once a channel's last handler has left (it is no longer in `channels()`): the
   * adapter stops listening to it. Awaited by the subscription's `unsubscribe`.
   */
  readonly release: (channel: string) => Promise<void>;
}

export class MessageFanOut {
  readonly #handlers = new Map<string, Set<MessageHandler>>();

  constructor(private readonly options: MessageFanOutOptions) {}

  /**
   * Adds `handler` to `channel` at once. The same function added twice is two subscriptions,
   * each delivered to and ended on its own; `unsubscribe` is idempotent.
   */
  add(channel: string, handler: MessageHandler): Subscription {
    // A wrapper per subscription, so subscribing one function twice delivers twice.
    const deliver: MessageHandler = (message) => handler(message);
    const handlers = this.#handlers.get(channel) ?? new Set<MessageHandler>();
    handlers.add(deliver);
    this.#handlers.set(channel, handlers);
    let active = true;
    return {
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        await this.#remove(channel, deliver);
      },
    };
  }

  /** The channels that have a handler now. */
  channels(): string[] {
    return [...this.#handlers.keys()];
  }

  /** Forgets every handler without releasing a channel (the adapter is closing); returns the channels. */
  clear(): string[] {
    const channels = this.channels();
    this.#handlers.clear();
    return channels;
  }

  /** Hands `payload`, received on `channel`, to each handler of the channel. */
  deliver(channel: string, payload: string): void {
    const handlers = this.#handlers.get(channel);
    if (!handlers) return;
    // The check's parse is the first handler's copy: a message is parsed once for one handler.
    let unused = parseMessage(payload);
    if (unused === undefined) {
      this.options.logger.debug(`ignored a message on ${channel} that is not a JSON object`, {
        payload: payload.slice(0, 200),
      });
      return;
    }
    for (const handler of handlers) {
      // Each handler gets its own copy, as from separate deliveries.
      const message = unused ?? parseMessage(payload);
      unused = undefined;
      try {
        handler(message);
      } catch (error) {
        this.options.logger.error(`a message handler of ${channel} threw: ${describeError(error)}`);
      }
    }
  }

  /** Removes one handler; the last one of a channel releases it. */
  async #remove(channel: string, deliver: MessageHandler): Promise<void> {
    const handlers = this.#handlers.get(channel);
    if (!handlers?.delete(deliver) || handlers.size > 0) return;
    this.#handlers.delete(channel);
    await this.options.release(channel);
  }
}
