/**
 * Which `onMessage` a driver's message passes run: `attach`'s while attached with one, else the
 * driver's own option, else none (messages then stay pending in the inbox); and how a nudge for
 * a profile this server holds reaches its session without the bus (set at assembly).
 */
import type { AnyMessageHandler } from '../config/settings.js';

export class MessageHandlers {
  #attached: AnyMessageHandler | undefined;

  /** Asks the session of `key` here for a pass; false when none is active here. */
  nudgeHere: (key: string) => boolean = () => false;

  constructor(private readonly own: AnyMessageHandler | undefined) {}

  /** The handler a pass runs now, if any. */
  get current(): AnyMessageHandler | undefined {
    return this.#attached ?? this.own;
  }

  /** At attach (`undefined`: the attach gave none); returns what undoes it at detach. */
  attach(handler: AnyMessageHandler | undefined): () => void {
    this.#attached = handler;
    return () => {
      if (this.#attached === handler) this.#attached = undefined;
    };
  }
}
