import { randomUUID } from 'node:crypto';
import { durationMs } from './duration.js';
import { type FilterNode, matchesFilter, parseFilter } from './filter.js';
import { type GrpcError, invalidArgument } from './grpc-errors.js';
import type { PubsubMessage, ReceivedMessage, SubscriptionResource } from './proto-shapes.js';

/** Something messages are pushed to: a StreamingPull stream or a waiting Pull. */
export interface Consumer {
  /** Lease length for messages handed to this consumer. */
  readonly ackDeadlineSeconds: number;
  /** How many more messages it takes now, given how many it holds unacked. */
  capacity(outstanding: number): number;
  deliver(messages: ReceivedMessage[]): void;
  /** The subscription went away (deleted, expired, or the emulator stopped). */
  close(reason: GrpcError): void;
}

interface Pending {
  message: PubsubMessage;
  /** How many times it has been handed out so far. */
  deliveries: number;
}

interface Lease {
  pending: Pending;
  deadline: number;
  consumer: Consumer | null;
}

/**
 * One subscription's queue: a backlog of undelivered messages and the leases
 * of delivered-but-unacked ones. A lease that runs out, or a nack (deadline
 * 0), puts its message back at the head of the backlog for redelivery.
 */
export class SubscriptionState {
  private readonly filter: FilterNode | null;
  private readonly backlog: Pending[] = [];
  private readonly leases = new Map<string, Lease>();
  private readonly consumers: Consumer[] = [];
  /** Rotates so successive deliveries spread over the client's parallel streams. */
  private cursor = 0;
  private readonly ackIdPrefix = randomUUID().slice(0, 8);
  private ackIdCounter = 0;
  private lastActivity = Date.now();

  constructor(readonly resource: SubscriptionResource) {
    this.filter = compileFilter(resource.filter ?? '');
  }

  /** Queues a newly published message if it passes the subscription filter. */
  offer(message: PubsubMessage): void {
    if (!matchesFilter(this.filter, message.attributes ?? {})) return;
    this.backlog.push({ message, deliveries: 0 });
    this.dispatch();
  }

  attach(consumer: Consumer): void {
    this.consumers.push(consumer);
    this.touch();
    this.dispatch();
  }

  detach(consumer: Consumer): void {
    const index = this.consumers.indexOf(consumer);
    if (index >= 0) this.consumers.splice(index, 1);
    // Its leases stay until they expire, as on the real service.
    for (const lease of this.leases.values()) {
      if (lease.consumer === consumer) lease.consumer = null;
    }
  }

  /** Leases up to `max` backlog messages at once (unary Pull). */
  take(max: number): ReceivedMessage[] {
    this.touch();
    const deadline = this.resource.ackDeadlineSeconds ?? 10;
    return this.backlog.splice(0, max).map((pending) => this.lease(pending, deadline, null));
  }

  acknowledge(ackIds: readonly string[]): void {
    this.touch();
    this.checkAckIds(ackIds);
    for (const ackId of ackIds) this.leases.delete(ackId);
    this.dispatch();
  }

  /** Extends leases; 0 seconds is a nack and makes the message available at once. */
  modifyAckDeadline(ackIds: readonly string[], seconds: number): void {
    this.touch();
    this.checkAckIds(ackIds);
    const nacked: Pending[] = [];
    for (const ackId of ackIds) {
      const lease = this.leases.get(ackId);
      if (!lease) continue; // Expired or already acked: ignored, like the real service.
      if (seconds > 0) {
        lease.deadline = Date.now() + seconds * 1000;
      } else {
        this.leases.delete(ackId);
        nacked.push(lease.pending);
      }
    }
    this.requeue(nacked);
  }

  /** Returns expired leases to the backlog. Called periodically by the broker. */
  expireLeases(now: number): void {
    const expired: Pending[] = [];
    for (const [ackId, lease] of this.leases) {
      if (lease.deadline > now) continue;
      this.leases.delete(ackId);
      expired.push(lease.pending);
    }
    this.requeue(expired);
  }

  /** True once idle (no subscriber attached, no calls) for longer than the expiration TTL. */
  isIdleExpired(now: number): boolean {
    const ttl = durationMs(this.resource.expirationPolicy?.ttl);
    return ttl > 0 && this.consumers.length === 0 && now - this.lastActivity > ttl;
  }

  close(reason: GrpcError): void {
    for (const consumer of this.consumers.splice(0)) consumer.close(reason);
    this.backlog.length = 0;
    this.leases.clear();
  }

  private requeue(pending: Pending[]): void {
    if (pending.length === 0) return;
    this.backlog.unshift(...pending);
    this.dispatch();
  }

  /** Hands the backlog out, starting from a different consumer each time. */
  private dispatch(): void {
    const consumers = [...this.consumers];
    for (let i = 0; i < consumers.length && this.backlog.length > 0; i++) {
      const consumer = consumers[(this.cursor + i) % consumers.length]!;
      const room = consumer.capacity(this.outstanding(consumer));
      if (room <= 0) continue;
      const batch = this.backlog.splice(0, room);
      consumer.deliver(batch.map((p) => this.lease(p, consumer.ackDeadlineSeconds, consumer)));
    }
    this.cursor += 1;
  }

  /** Each delivery gets a fresh ack id, so an ack from a stale delivery cannot hit a newer one. */
  private lease(pending: Pending, seconds: number, consumer: Consumer | null): ReceivedMessage {
    pending.deliveries += 1;
    const ackId = `${this.ackIdPrefix}-${++this.ackIdCounter}`;
    this.leases.set(ackId, { pending, deadline: Date.now() + seconds * 1000, consumer });
    // Google reports attempts only on subscriptions with a dead-letter policy; 0 otherwise.
    const deliveryAttempt = this.resource.deadLetterPolicy ? pending.deliveries : 0;
    return { ackId, message: pending.message, deliveryAttempt };
  }

  /** Ack ids this subscription never issued are an error on Google's side too. */
  private checkAckIds(ackIds: readonly string[]): void {
    const foreign = ackIds.find((ackId) => !ackId.startsWith(`${this.ackIdPrefix}-`));
    if (foreign !== undefined) throw invalidArgument(`Invalid ack id (ack_id=${foreign}).`);
  }

  private outstanding(consumer: Consumer): number {
    let count = 0;
    for (const lease of this.leases.values()) if (lease.consumer === consumer) count += 1;
    return count;
  }

  private touch(): void {
    this.lastActivity = Date.now();
  }
}

function compileFilter(filter: string): FilterNode | null {
  try {
    return parseFilter(filter);
  } catch (error) {
    throw invalidArgument(error instanceof Error ? error.message : String(error));
  }
}
