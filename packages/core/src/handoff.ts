/**
 * One handoff per server: a subscription to `CKHandoff_<jobId>` that routes release requests
 * and replies to the drivers by name, and a presence beat (`CKPresence`, key = jobId) that
 * tells other servers this one is alive. Shared by every driver on the server.
 */

import { sameFields } from './config-checks.js';
import { consoleLogger } from './console-logger.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import { EventStream } from './event-stream.js';
import type { EventListener, EventPayload } from './events.js';
import { MessageGate } from './handoff-gate.js';
import type { HandoffClient, HandoffOptions } from './handoff-options.js';
import { TopicSubscription } from './handoff-subscription.js';
import { isWellFormedText, tooLong } from './keys.js';
import type { Messenger } from './ports/messenger.js';
import type { Presence } from './ports/presence.js';
import type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';
import type { MessageLimits } from './rules/index.js';
import { retryOnce } from './signal.js';
import { SystemScheduler } from './system-scheduler.js';
import { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './timings.js';
import {
  type HandoffMessage,
  parseHandoffMessage,
  replyMessage,
  requestMessage,
  topicOf,
} from './wire.js';

export type { HandoffClient, HandoffOptions } from './handoff-options.js';

const marker = Symbol.for('datadriver.handoff');

/** The one handoff of each server (`Handoff.shared`), by jobId. */
const sharedHandoffs = new Map<string, Handoff>();

export class Handoff {
  /** Presence beat period in seconds (seed). */
  static readonly BEAT_SECONDS = DEFAULT_TIMINGS.beatSeconds;
  /** Presence key lifetime in seconds (seed). */
  static readonly PRESENCE_TTL_SECONDS = DEFAULT_TIMINGS.presenceTtlSeconds;

  readonly jobId: string;
  readonly timings: HandoffTimings;
  /** The topic this server listens on. */
  readonly topic: string;
  private readonly messenger: Messenger;
  private readonly presence: Presence;
  private scheduler: Scheduler;
  private readonly events: EventStream;
  private readonly clients = new Map<string, HandoffClient>();
  private readonly subscription: TopicSubscription;
  private beatTask: ScheduledTask | undefined;
  private beatHealthy = true;
  private destroyed = false;
  private readonly gate: MessageGate;
  readonly [marker] = true;

  constructor(options: HandoffOptions) {
    if (!isWellFormedText(options.jobId)) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        'a handoff needs a non-empty jobId of well-formed UTF-16 (no lone surrogates)',
      );
    }
    const long = tooLong(options.jobId);
    if (long) throw new DataDriverError(ErrorCode.InvalidConfig, `a handoff's jobId ${long}`);
    this.jobId = options.jobId;
    this.topic = topicOf(options.jobId);
    this.messenger = options.messenger;
    this.presence = options.presence;
    this.scheduler = options.scheduler ?? new SystemScheduler();
    this.events = new EventStream(options.logger ?? consoleLogger(), () => ({
      time: this.scheduler.now(),
      jobId: this.jobId,
    }));
    try {
      this.timings = resolveTimings(options.timings);
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff options');
    }
    this.subscription = new TopicSubscription(
      options.messenger,
      this.topic,
      (message) => this.route(message),
      (event) => this.emit(event),
    );
    this.gate = new MessageGate(
      options.limits,
      options.signing,
      () => this.scheduler.now(),
      (event) => this.emit(event),
    );
  }

  /** How many messages this server publishes and accepts. */
  get limits(): MessageLimits {
    return this.gate.limits;
  }

  /**
   * The one handoff of server `jobId`, made on first use with these options; later calls get
   * the same instance whatever ports they pass. Signing, limits or timings given that differ
   * from the existing handoff's are refused (`Data.InvalidConfig`): dropping them silently
   * would leave a driver that asked for signing unsigned.
   */
  static shared(jobId: string, options: Omit<HandoffOptions, 'jobId'>): Handoff {
    const existing = sharedHandoffs.get(jobId);
    if (existing) {
      existing.assertSameAs(options);
      return existing;
    }
    // `this`, not the class's name: a class body naming its own class is renamed by the bundler.
    const handoff = new this({ ...options, jobId });
    sharedHandoffs.set(jobId, handoff);
    return handoff;
  }

  /** True for a Handoff from any copy of this package. */
  static isInstance(value: unknown): value is Handoff {
    return typeof value === 'object' && value !== null && marker in value;
  }

  /** Subscribes to what this handoff reports (beat failures, subscription state). */
  on(listener: EventListener): () => void {
    return this.events.on(listener);
  }

  /** Routes messages for `client.name` to `client`, subscribing on first use. */
  register(client: HandoffClient): void {
    this.assertLive();
    const existing = this.clients.get(client.name);
    if (existing && existing !== client) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `two drivers named ${client.name} on one handoff: handoff routes by name, so they would collide`,
      );
    }
    this.clients.set(client.name, client);
    void this.subscription.ensure();
  }

  unregister(client: HandoffClient): void {
    if (this.clients.get(client.name) === client) this.clients.delete(client.name);
  }

  /** Number of drivers registered. */
  get clientCount(): number {
    return this.clients.size;
  }

  /** Beats presence now and every `beatSeconds` after. Idempotent. */
  start(scheduler: Scheduler = this.scheduler, priority: TaskPriority = 'background'): void {
    this.assertLive();
    if (this.beatTask) return;
    this.scheduler = scheduler;
    this.beatTask = scheduler.repeat(
      this.timings.beatSeconds * 1000,
      () => void this.tick(),
      priority,
    );
    void this.beat();
  }

  /** Writes one presence beat. The first failure after a success warns. */
  async beat(): Promise<void> {
    try {
      await retryOnce(this.scheduler, this.timings.presenceRetrySeconds * 1000, () =>
        this.presence.set(this.jobId, '1', this.timings.presenceTtlSeconds),
      );
      this.beatHealthy = true;
      this.emit({ type: 'presence.beat' });
    } catch (error) {
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, 'presence beat failed');
      this.emit({ type: 'presence.beat-failed', error: failure, first: this.beatHealthy });
      this.beatHealthy = false;
    }
  }

  /**
   * Whether server `jobId` beats presence: `true` for a beat within the TTL (always for this
   * server), `false` when a read found none, `undefined` when the read failed.
   */
  async isAlive(jobId: string): Promise<boolean | undefined> {
    if (jobId === this.jobId) return true;
    try {
      const value = await retryOnce(this.scheduler, this.timings.presenceRetrySeconds * 1000, () =>
        this.presence.get(jobId),
      );
      return value !== undefined;
    } catch {
      return undefined;
    }
  }

  /** Asks `holder` to release `key` of driver `driverName`; `token` names the lock seen. */
  async request(driverName: string, key: string, holder: string, token?: string): Promise<void> {
    const reason = this.clients.get(driverName)?.requestReason?.(key);
    await this.publish(holder, requestMessage(driverName, key, this.jobId, token, reason));
  }

  /** Tells `requester` that this server no longer holds `key` of driver `driverName`. */
  async reply(driverName: string, key: string, requester: string): Promise<void> {
    await this.publish(requester, replyMessage(driverName, key));
  }

  /** True while this server receives requests (false: subscribe failed, polling). */
  get subscribed(): boolean {
    return this.subscription.active;
  }

  /** Stops the beat, disconnects the subscription and forgets the drivers. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.beatTask?.cancel();
    this.beatTask = undefined;
    this.clients.clear();
    if (sharedHandoffs.get(this.jobId) === this) sharedHandoffs.delete(this.jobId);
    await this.subscription.end();
  }

  private async tick(): Promise<void> {
    // A failed subscription is retried with each beat: handoff polls until it is back.
    if (!this.subscription.active && this.clients.size > 0) void this.subscription.ensure();
    await this.beat();
  }

  /** Refuses options a shared handoff would otherwise silently ignore. */
  private assertSameAs(options: Omit<HandoffOptions, 'jobId'>): void {
    const differs = this.gate.differences(options.limits, options.signing);
    if (
      options.timings !== undefined &&
      !sameFields(resolveTimings(options.timings), this.timings)
    ) {
      differs.push('timings');
    }
    if (differs.length === 0) return;
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `the handoff of server ${this.jobId} already runs with other ${differs.join(', ')} (set by the first driver attached, or Handoff.shared); give every driver of this server the same handoffSigning, handoffLimits and timings, or make the Handoff first and pass it as the handoff option`,
      { details: { jobId: this.jobId, differs } },
    );
  }

  private route(raw: unknown): void {
    // Counted before it is read: a flood costs this server the budget, never more.
    if (!this.gate.admit()) return;
    const message = parseHandoffMessage(raw);
    if (!message || !this.gate.trusted(message, raw)) return;
    const client = this.clients.get(message.D);
    if (!client) return;
    if (message.T === 'Q') client.receiveHandoffRequest(message.K, message.R, message.L, message.W);
    else client.receiveHandoffReply(message.K);
  }

  private async publish(jobId: string, message: HandoffMessage): Promise<void> {
    const sent = this.gate.outgoing(message, jobId, this.publishPerMinute());
    try {
      await retryOnce(this.scheduler, this.timings.messageRetrySeconds * 1000, () =>
        this.messenger.publish(topicOf(jobId), sent),
      );
    } catch (error) {
      throw toDataDriverError(
        error,
        ErrorCode.BackendFailed,
        `publish to ${topicOf(jobId)} failed`,
      );
    }
  }

  /** This server's publish budget: a base, and more for each profile its drivers hold. */
  private publishPerMinute(): number {
    let profiles = 0;
    for (const client of this.clients.values()) profiles += client.profileCount ?? 0;
    return this.limits.publishPerMinute + this.limits.publishPerPlayerPerMinute * profiles;
  }

  private emit(event: EventPayload): void {
    this.events.emit(event);
  }

  private assertLive(): void {
    if (this.destroyed) throw new DataDriverError(ErrorCode.Closed, 'this handoff was destroyed');
  }
}
