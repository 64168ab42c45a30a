/**
 * A handoff's subscription to its server's topic, with one owner of "are we subscribed": made
 * on first use, retried with each beat while it is down (the server polls presence meanwhile),
 * warned about once per outage, and ended with the handoff.
 */

import type { EventPayload } from '../events/events.js';
import { ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { Messenger, Subscription } from '../ports/messenger.js';

export class TopicSubscription {
  #subscription: Subscription | undefined;
  #subscribing: Promise<void> | undefined;
  #warned = false;
  #ended = false;

  constructor(
    private readonly messenger: Messenger,
    readonly topic: string,
    private readonly route: (message: unknown) => void,
    private readonly report: (event: EventPayload) => void,
  ) {}

  /** True while messages arrive (false: the subscribe failed, or it has not run yet). */
  get active(): boolean {
    return this.#subscription !== undefined;
  }

  /** Subscribes unless subscribed (or subscribing) already. */
  ensure(): Promise<void> {
    if (this.#subscription || this.#ended) return Promise.resolve();
    this.#subscribing ??= this.subscribe().finally(() => {
      this.#subscribing = undefined;
    });
    return this.#subscribing;
  }

  /** Unsubscribes, after a subscribe in flight settles; no subscribe runs after this. */
  async end(): Promise<void> {
    this.#ended = true;
    await this.#subscribing;
    const subscription = this.#subscription;
    this.#subscription = undefined;
    await subscription?.unsubscribe();
  }

  private async subscribe(): Promise<void> {
    try {
      const subscription = await this.messenger.subscribe(this.topic, this.route);
      if (this.#ended) {
        await subscription.unsubscribe();
        return;
      }
      this.#subscription = subscription;
      this.#warned = false;
      this.report({ type: 'handoff.subscribed', topic: this.topic });
    } catch (error) {
      if (this.#warned) return;
      this.#warned = true;
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, 'subscribe failed');
      this.report({ type: 'handoff.subscribe-failed', topic: this.topic, error: failure });
    }
  }
}
