/**
 * What this messenger asks of the client library: the publisher, subscriber and subscription
 * settings that suit handoff messages (few, small, urgent, worthless after a few seconds).
 */
import {
  type CallOptions,
  type CreateSubscriptionOptions,
  Duration,
  type PublishOptions,
  type SubscriberOptions,
} from '@google-cloud/pubsub';
import type { ResolvedOptions } from './options.js';

/**
 * Bounds one call, retries included. The library's defaults let a call retry for a minute
 * or more (a topic lookup through a cut connection took 92 s), holding a joining player far
 * past `lockWaitSeconds` during an outage.
 */
export function callOptions(options: ResolvedOptions): CallOptions & { timeout: number } {
  return { timeout: options.timeoutSeconds * 1000 };
}

/** Publisher settings: the user's, over batching off and the call bound. */
export function publishOptions(options: ResolvedOptions): PublishOptions {
  const user = options.publishOptions;
  return {
    ...user,
    // Batching would hold each message ~10 ms waiting for company it rarely gets.
    batching: { maxMessages: 1, ...user.batching },
    gaxOpts: { ...callOptions(options), ...user.gaxOpts },
  };
}

/** Subscriber settings: the user's, over one stream and a bounded close. */
export function subscriberOptions(options: ResolvedOptions): SubscriberOptions {
  const user = options.subscriberOptions;
  return {
    ...user,
    // A server gets a few messages a minute; the default of 5 streams would cost 5 connections.
    streamingOptions: { maxStreams: 1, ...user.streamingOptions },
    // Closing flushes acks; an outage must not hold `unsubscribe` for the library's 60 min.
    // A lost ack only means a redelivery, which the handoff treats as harmless.
    closeOptions: {
      timeout: Duration.from({ seconds: options.timeoutSeconds }),
      ...user.closeOptions,
    },
  };
}

/** The subscription one server creates: filtered to its topic, expiring once abandoned. */
export function subscriptionSettings(
  options: ResolvedOptions,
  filter: string,
): CreateSubscriptionOptions {
  return {
    filter,
    expirationPolicy: { ttl: { seconds: options.expirationSeconds } },
    messageRetentionDuration: { seconds: options.retentionSeconds },
    // A nacked message (its handler threw) comes back after 1 s, then up to 10 s: never a
    // tight loop of redeliveries, and well inside the retention.
    retryPolicy: { minimumBackoff: { seconds: 1 }, maximumBackoff: { seconds: 10 } },
    gaxOpts: callOptions(options),
  };
}
