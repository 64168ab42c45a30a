import { status } from '@grpc/grpc-js';
import { durationOfSeconds, timestampOf } from './duration.js';
import { alreadyExists, GrpcError, invalidArgument, notFound } from './grpc-errors.js';
import type { PubsubMessage, SubscriptionResource, TopicResource } from './proto-shapes.js';
import { SubscriptionState } from './subscription-state.js';

/** Lease expiry and idle-subscription checks run on this tick. */
const SWEEP_INTERVAL_MS = 50;
const DEFAULT_ACK_DEADLINE_SECONDS = 10;
const DEFAULT_RETENTION_SECONDS = 7 * 24 * 3600;
const DEFAULT_EXPIRATION_TTL_SECONDS = 31 * 24 * 3600;
/** What Google reports as the topic of a subscription whose topic was deleted. */
const DELETED_TOPIC = '_deleted-topic_';
const IMMUTABLE_FIELDS = new Set(['name', 'topic', 'filter']);

// The resource-name rules Google enforces, so bad names fail here as they would there.
const ID = '[A-Za-z][A-Za-z0-9\\-_.~+%]{2,254}';
const TOPIC_NAME = new RegExp(`^projects/[^/]+/topics/${ID}$`);
const SUBSCRIPTION_NAME = new RegExp(`^projects/[^/]+/subscriptions/${ID}$`);

/** All topics and subscriptions of one emulator instance, across projects. */
export class Broker {
  private readonly topics = new Map<string, TopicResource>();
  private readonly subscriptions = new Map<string, SubscriptionState>();
  private messageCounter = 0;
  private readonly sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_INTERVAL_MS);

  constructor() {
    this.sweeper.unref();
  }

  createTopic(topic: TopicResource): TopicResource {
    checkName(topic.name, TOPIC_NAME, 'topic');
    if (this.topics.has(topic.name)) throw alreadyExists(topic.name);
    this.topics.set(topic.name, topic);
    return topic;
  }

  getTopic(name: string): TopicResource {
    const topic = this.topics.get(name);
    if (!topic) throw notFound(name);
    return topic;
  }

  deleteTopic(name: string): void {
    if (!this.topics.delete(name)) throw notFound(name);
    for (const state of this.subscriptions.values()) {
      if (state.resource.topic === name) state.resource.topic = DELETED_TOPIC;
    }
  }

  listTopics(project: string): TopicResource[] {
    return [...this.topics.values()].filter((topic) => topic.name.startsWith(`${project}/`));
  }

  listTopicSubscriptions(topic: string): string[] {
    this.getTopic(topic);
    return this.subscriptionsOf(topic).map((state) => state.resource.name);
  }

  /** Stores nothing per topic: each subscription existing now gets its own copy. */
  publish(topic: string, messages: readonly PubsubMessage[]): string[] {
    this.getTopic(topic);
    if (messages.length === 0) throw invalidArgument('At least one message is required.');
    const subscribers = this.subscriptionsOf(topic);
    return messages.map((message) => {
      const stamped = this.stamp(message);
      for (const state of subscribers) state.offer(stamped);
      return stamped.messageId ?? '';
    });
  }

  createSubscription(resource: SubscriptionResource): SubscriptionResource {
    checkName(resource.name, SUBSCRIPTION_NAME, 'subscription');
    if (this.subscriptions.has(resource.name)) throw alreadyExists(resource.name);
    this.getTopic(resource.topic);
    checkAckDeadline(resource.ackDeadlineSeconds ?? 0);
    const state = new SubscriptionState(withDefaults(resource));
    this.subscriptions.set(resource.name, state);
    return state.resource;
  }

  subscription(name: string): SubscriptionState {
    const state = this.subscriptions.get(name);
    if (!state) throw notFound(name);
    return state;
  }

  /** Copies the masked fields; name, topic and filter are immutable on Google too. */
  updateSubscription(update: SubscriptionResource, paths: readonly string[]): SubscriptionResource {
    const state = this.subscription(update.name);
    const fields = paths.map(camelCase);
    const immutable = fields.find((field) => IMMUTABLE_FIELDS.has(field));
    if (immutable) throw invalidArgument(`Field ${immutable} cannot be updated.`);
    if (fields.includes('ackDeadlineSeconds')) checkAckDeadline(update.ackDeadlineSeconds ?? 0);
    for (const field of fields) state.resource[field] = update[field];
    return state.resource;
  }

  deleteSubscription(name: string): void {
    this.subscription(name).close(notFound(name));
    this.subscriptions.delete(name);
  }

  listSubscriptions(project: string): SubscriptionResource[] {
    return [...this.subscriptions.values()]
      .map((state) => state.resource)
      .filter((resource) => resource.name.startsWith(`${project}/`));
  }

  close(): void {
    clearInterval(this.sweeper);
    const reason = new GrpcError(status.UNAVAILABLE, 'The emulator is shutting down.');
    for (const state of this.subscriptions.values()) state.close(reason);
    this.subscriptions.clear();
    this.topics.clear();
  }

  private subscriptionsOf(topic: string): SubscriptionState[] {
    return [...this.subscriptions.values()].filter((state) => state.resource.topic === topic);
  }

  private stamp(message: PubsubMessage): PubsubMessage {
    const empty =
      (message.data?.length ?? 0) === 0 && Object.keys(message.attributes ?? {}).length === 0;
    if (empty) throw invalidArgument('A message must have data or attributes.');
    this.messageCounter += 1;
    return {
      ...message,
      messageId: String(this.messageCounter),
      publishTime: timestampOf(Date.now()),
    };
  }

  private sweep(now: number): void {
    for (const [name, state] of this.subscriptions) {
      state.expireLeases(now);
      if (state.isIdleExpired(now)) this.deleteSubscription(name);
    }
  }
}

function checkName(name: string, pattern: RegExp, kind: string): void {
  if (!pattern.test(name)) throw invalidArgument(`Invalid ${kind} name: "${name}".`);
}

/** Google allows up to 600 s; it accepts short custom deadlines, and 0 means the default. */
function checkAckDeadline(seconds: number): void {
  if (seconds < 0 || seconds > 600) throw invalidArgument('ack_deadline_secs out of bounds');
}

/** Fills the settings Google defaults when a create request leaves them unset. */
function withDefaults(resource: SubscriptionResource): SubscriptionResource {
  return {
    ...resource,
    ackDeadlineSeconds: resource.ackDeadlineSeconds || DEFAULT_ACK_DEADLINE_SECONDS,
    messageRetentionDuration:
      resource.messageRetentionDuration ?? durationOfSeconds(DEFAULT_RETENTION_SECONDS),
    expirationPolicy: resource.expirationPolicy ?? {
      ttl: durationOfSeconds(DEFAULT_EXPIRATION_TTL_SECONDS),
    },
  };
}

function camelCase(path: string): string {
  return path.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
