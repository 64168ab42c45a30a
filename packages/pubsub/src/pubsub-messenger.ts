import {
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type JsonObject,
  type Logger,
  type MessageHandler,
  type Messenger,
} from '@datadriver/core/ports';
import type { Topic } from '@google-cloud/pubsub';
import { encodeTopic, filterFor, subscriptionIdFor, TOPIC_ATTRIBUTE } from './addressing.js';
import {
  callOptions,
  publishOptions,
  subscriberOptions,
  subscriptionSettings,
} from './client-settings.js';
import { GrpcCode, grpcCodeOf } from './grpc-codes.js';
import { toMessengerError } from './messenger-error.js';
import { type PubSubMessengerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { PubSubSubscription } from './pubsub-subscription.js';

/**
 * The `Messenger` port on Google Cloud Pub/Sub, through the application's own `PubSub`
 * client. Every message travels on one shared topic, tagged with the port-level topic it is
 * addressed to (`CKHandoff_<jobId>`); each `subscribe()` creates a subscription whose filter
 * selects those messages, expiring a day after its server stops pulling.
 *
 * It translates and adds nothing: delivery stays at least once and unordered, and the
 * handoff's lock tokens make a duplicate or late message harmless.
 */
export class PubSubMessenger implements Messenger {
  readonly specificationVersion = 'v1';
  /** The Pub/Sub topic every message travels on. */
  readonly topicName: string;
  private readonly options: ResolvedOptions;
  private readonly logger: Logger;
  private readonly topic: Topic;
  private readonly subscriptions = new Set<PubSubSubscription>();
  private topicReady: Promise<void> | undefined;
  private destroyed = false;

  /** Throws `Data.InvalidConfig` for options Pub/Sub would refuse. Makes no call yet. */
  constructor(options: PubSubMessengerOptions) {
    this.options = resolveOptions(options);
    this.topicName = this.options.topicName;
    this.logger = options.logger ?? consoleLogger('[DataDriver Pub/Sub]');
    this.topic = this.options.client.topic(this.topicName, publishOptions(this.options));
  }

  /**
   * Publishes `message` to the servers subscribed to `topic`. Rejects with a
   * `DataDriverError` when Pub/Sub did not accept it within `timeoutSeconds`.
   */
  async publish(topic: string, message: JsonObject): Promise<void> {
    this.assertLive();
    await this.ensureTopic();
    try {
      await this.topic.publishMessage({
        data: Buffer.from(JSON.stringify(message)),
        attributes: { [TOPIC_ATTRIBUTE]: encodeTopic(topic) },
      });
    } catch (error) {
      throw toMessengerError(error, `publish to ${topic} on Pub/Sub topic ${this.topicName}`);
    }
  }

  /**
   * Creates a Pub/Sub subscription filtered to `topic` and delivers its messages to `handler`
   * from then on. Rejects with a `DataDriverError` when the subscription could not be made.
   */
  async subscribe(topic: string, handler: MessageHandler): Promise<PubSubSubscription> {
    this.assertLive();
    const filter = filterFor(topic);
    await this.ensureTopic();
    const subscriptionId = subscriptionIdFor(this.options.subscriptionPrefix, topic);
    try {
      await this.topic.createSubscription(
        subscriptionId,
        subscriptionSettings(this.options, filter),
      );
    } catch (error) {
      throw toMessengerError(error, `create Pub/Sub subscription ${subscriptionId} for ${topic}`);
    }
    const subscription = new PubSubSubscription(
      this.options.client.subscription(subscriptionId, subscriberOptions(this.options)),
      { topic, subscriptionId, handler, logger: this.logger },
      callOptions(this.options),
      (deleted) => this.subscriptions.delete(deleted),
    );
    this.subscriptions.add(subscription);
    subscription.open();
    if (this.destroyed) {
      await subscription.unsubscribe(); // destroyed while it was being created
      throw closedError();
    }
    return subscription;
  }

  /**
   * Closes and deletes every subscription this messenger created; then `publish` and
   * `subscribe` reject with `Data.Closed`. The client stays open: it is the application's.
   * Rejects with the first failed delete; calling again retries the ones that failed.
   */
  async destroy(): Promise<void> {
    this.destroyed = true;
    const results = await Promise.allSettled(
      [...this.subscriptions].map((subscription) => subscription.unsubscribe()),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private ensureTopic(): Promise<void> {
    if (!this.options.createTopic) return Promise.resolve();
    this.topicReady ??= this.createTopic().catch((error: unknown) => {
      this.topicReady = undefined; // the next call tries again
      throw error;
    });
    return this.topicReady;
  }

  private async createTopic(): Promise<void> {
    try {
      await this.topic.create(callOptions(this.options));
    } catch (error) {
      // Made by another server (or a deploy) before: the usual case once a fleet runs.
      if (grpcCodeOf(error) === GrpcCode.AlreadyExists) return;
      throw toMessengerError(error, `create Pub/Sub topic ${this.topicName}`);
    }
  }

  private assertLive(): void {
    if (this.destroyed) throw closedError();
  }
}

function closedError(): DataDriverError {
  return new DataDriverError(ErrorCode.Closed, 'this PubSubMessenger was destroyed');
}
