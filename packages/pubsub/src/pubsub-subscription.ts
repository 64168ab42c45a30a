import { describeError, type Subscription } from '@datadriver/core/ports';
import type { Subscription as ClientSubscription } from '@google-cloud/pubsub';
import { GrpcCode, grpcCodeOf } from './grpc-codes.js';
import { toMessengerError } from './messenger-error.js';
import { type Route, receiveMessage } from './receive-message.js';

/**
 * One `subscribe()`: a Pub/Sub subscription this messenger created, and the client's stream
 * pulling from it. `unsubscribe()` closes the stream, then deletes the subscription.
 */
export class PubSubSubscription implements Subscription {
  private closing: Promise<void> | undefined;
  private deleting: Promise<void> | undefined;
  private ending = false;

  /** @internal Made by `PubSubMessenger.subscribe`. */
  constructor(
    private readonly stream: ClientSubscription,
    private readonly route: Route,
    private readonly deleteOptions: { readonly timeout: number },
    private readonly onDeleted: (subscription: PubSubSubscription) => void,
  ) {}

  /** The Pub/Sub subscription's full resource name (`projects/<p>/subscriptions/<id>`). */
  get name(): string {
    return this.stream.name;
  }

  /** @internal Starts the stream: the client opens it on the first message listener. */
  open(): void {
    this.stream.on('error', (error) => this.streamFailed(error));
    this.stream.on('message', (message) => receiveMessage(message, this.route));
  }

  /**
   * Stops delivery, then deletes the subscription. Idempotent; when the delete fails it
   * rejects (a `DataDriverError`), a later call tries the delete again, and the expiration
   * policy removes the subscription after `expirationSeconds` in any case.
   */
  async unsubscribe(): Promise<void> {
    this.ending = true;
    this.closing ??= this.close();
    await this.closing;
    this.deleting ??= this.delete().catch((error: unknown) => {
      this.deleting = undefined;
      throw error;
    });
    await this.deleting;
  }

  private async close(): Promise<void> {
    // Closed before the delete: deleting under a live stream ends it with NOT_FOUND.
    try {
      await this.stream.close();
    } catch (error) {
      this.route.logger.warn(
        `closing Pub/Sub subscription ${this.route.subscriptionId} failed; deleting it anyway: ${describeError(error)}`,
      );
    }
  }

  private async delete(): Promise<void> {
    try {
      await this.stream.delete(this.deleteOptions);
    } catch (error) {
      if (grpcCodeOf(error) !== GrpcCode.NotFound) {
        throw toMessengerError(error, `delete Pub/Sub subscription ${this.route.subscriptionId}`);
      }
      this.route.logger.debug(
        `Pub/Sub subscription ${this.route.subscriptionId} was already gone (expired or deleted)`,
      );
    }
    this.onDeleted(this);
  }

  /**
   * The client retries what it can (UNAVAILABLE and the like) on its own; what reaches here
   * ended the stream. The port has no way to tell the handoff, so it is logged loudly.
   */
  private streamFailed(error: Error): void {
    const failure = toMessengerError(
      error,
      `pulling from Pub/Sub subscription ${this.route.subscriptionId}`,
    );
    if (this.ending) {
      this.route.logger.debug(`${failure.message} (while unsubscribing)`);
      return;
    }
    this.route.logger.warn(
      `${failure.message}; messages to ${this.route.topic} will not arrive until it is subscribed again`,
    );
  }
}
