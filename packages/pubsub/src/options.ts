import { DataDriverError, ErrorCode, type Logger } from '@datadriver/core';
import type { PublishOptions, PubSub, SubscriberOptions } from '@google-cloud/pubsub';

/** Options of a {@link PubSubMessenger}. */
export interface PubSubMessengerOptions {
  /** The application's own client: its project, credentials and endpoint are used as they are. */
  readonly client: PubSub;
  /** The one Pub/Sub topic that carries every server's messages. Default `datadriver-handoff`. */
  readonly topicName?: string;
  /**
   * Creates the topic on first use when it is missing (needs `pubsub.topics.create`).
   * Default `true`; set `false` when the topic is provisioned beforehand.
   */
  readonly createTopic?: boolean;
  /** Start of every subscription id this messenger creates. Default `datadriver-`. */
  readonly subscriptionPrefix?: string;
  /**
   * Pub/Sub deletes a subscription nobody has pulled from for this long: what is left of a
   * crashed server. Default and minimum 86 400 (one day, the service's minimum).
   */
  readonly expirationSeconds?: number;
  /**
   * How long Pub/Sub keeps a message that was not acknowledged. Default and minimum 600
   * (ten minutes, the service's minimum): a handoff message is worthless long before that.
   */
  readonly retentionSeconds?: number;
  /**
   * The most one call to Pub/Sub (publish, create, delete, the final ack flush of a
   * subscription) may take, the client's own retries included. Default 5.
   */
  readonly timeoutSeconds?: number;
  /** The client's publisher options, over this messenger's (batching off, `timeoutSeconds`). */
  readonly publishOptions?: PublishOptions;
  /** The client's subscriber options, over this messenger's (one stream, `timeoutSeconds` to close). */
  readonly subscriberOptions?: SubscriberOptions;
  /** Where debug lines (ignored messages) and warnings go. Default: warnings to the console. */
  readonly logger?: Logger;
}

export interface ResolvedOptions {
  readonly client: PubSub;
  readonly topicName: string;
  readonly createTopic: boolean;
  readonly subscriptionPrefix: string;
  readonly expirationSeconds: number;
  readonly retentionSeconds: number;
  readonly timeoutSeconds: number;
  readonly publishOptions: PublishOptions;
  readonly subscriberOptions: SubscriberOptions;
}

const DAY = 86_400;
/** The service's bounds (seconds). */
const EXPIRATION = { min: DAY, max: 31 * DAY };
const RETENTION = { min: 600, max: 31 * DAY };
/** Google's rules for a topic or subscription id. */
const RESOURCE_ID = /^[A-Za-z][A-Za-z0-9\-_.~+%]{2,254}$/;
const ID_PREFIX = /^[A-Za-z][A-Za-z0-9\-_.~+%]{0,199}$/;

function invalid(message: string): DataDriverError {
  return new DataDriverError(ErrorCode.InvalidConfig, `PubSubMessenger: ${message}`);
}

function checkId(name: string, value: string, pattern: RegExp): string {
  if (!pattern.test(value) || value.toLowerCase().startsWith('goog')) {
    throw invalid(
      `${name} ${JSON.stringify(value)} is not a valid Pub/Sub id (a letter, then letters, digits or -_.~+%; not "goog...")`,
    );
  }
  return value;
}

function checkSeconds(name: string, value: number, bounds: { min: number; max: number }): number {
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw invalid(
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}, not ${value}`,
    );
  }
  return value;
}

/** Fills defaults and refuses what Pub/Sub would refuse, at construction (`Data.InvalidConfig`). */
export function resolveOptions(options: PubSubMessengerOptions): ResolvedOptions {
  if (typeof options?.client?.topic !== 'function') {
    throw invalid('`client` must be a PubSub client from @google-cloud/pubsub');
  }
  const expirationSeconds = checkSeconds(
    'expirationSeconds',
    options.expirationSeconds ?? DAY,
    EXPIRATION,
  );
  const retentionSeconds = checkSeconds(
    'retentionSeconds',
    options.retentionSeconds ?? 600,
    RETENTION,
  );
  // The service refuses a subscription that would expire before its messages do.
  if (expirationSeconds < retentionSeconds) {
    throw invalid('expirationSeconds must be at least retentionSeconds');
  }
  const timeoutSeconds = options.timeoutSeconds ?? 5;
  if (!(timeoutSeconds > 0) || !Number.isFinite(timeoutSeconds)) {
    throw invalid(`timeoutSeconds must be a positive number, not ${timeoutSeconds}`);
  }
  return {
    client: options.client,
    topicName: checkId('topicName', options.topicName ?? 'datadriver-handoff', RESOURCE_ID),
    createTopic: options.createTopic ?? true,
    subscriptionPrefix: checkId(
      'subscriptionPrefix',
      options.subscriptionPrefix ?? 'datadriver-',
      ID_PREFIX,
    ),
    expirationSeconds,
    retentionSeconds,
    timeoutSeconds,
    publishOptions: options.publishOptions ?? {},
    subscriberOptions: options.subscriberOptions ?? {},
  };
}
