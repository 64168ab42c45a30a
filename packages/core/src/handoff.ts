/**
 * One handoff per server: a subscription to `CKHandoff_<jobId>` that routes release requests
 * and replies to the drivers by name, and a presence beat (`CKPresence`, key = jobId) that
 * tells other servers this one is alive. Shared by every driver on the server.
 */

import { consoleLogger } from './console-logger.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import {
  type DataDriverEvent,
  type EventListener,
  type EventPayload,
  EventStream,
} from './events.js';
import type { JsonObject } from './json.js';
import { isWellFormedText } from './ports/key-checks.js';
import type { Logger } from './ports/logger.js';
import type { Messenger, Subscription } from './ports/messenger.js';
import type { Presence } from './ports/presence.js';
import type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';
import { sleep } from './signal.js';
import { SystemScheduler } from './system-scheduler.js';
import { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './timings.js';
import { parseHandoffMessage, replyMessage, requestMessage, topicOf } from './wire.js';

/** What a handoff routes messages to: a DataDriver, by its name. */
export interface HandoffClient {
  readonly name: string;
  /** Another server asks this driver to release `key`; `token` names the lock it saw. */
  receiveHandoffRequest(key: string, requester: string, token: string | undefined): void;
  /** The server this driver asked no longer holds `key`. */
  receiveHandoffReply(key: string): void;
}

export interface HandoffOptions {
  /** This server's id. */
  readonly jobId: string;
  readonly messenger: Messenger;
  readonly presence: Presence;
  readonly scheduler?: Scheduler;
  readonly logger?: Logger;
  /** The seed's constants by default; scale them down for fast tests and demos. */
  readonly timings?: Partial<HandoffTimings>;
}

const marker = Symbol.for('datadriver.handoff');

export class Handoff {
  /** Presence beat period in seconds (seed). */
  static readonly BEAT_SECONDS = DEFAULT_TIMINGS.beatSeconds;
  /** Presence key lifetime in seconds (seed). */
  static readonly PRESENCE_TTL_SECONDS = DEFAULT_TIMINGS.presenceTtlSeconds;
  private static readonly servers = new Map<string, Handoff>();

  readonly jobId: string;
  readonly timings: HandoffTimings;
  /** The topic this server listens on. */
  readonly topic: string;
  private readonly messenger: Messenger;
  private readonly presence: Presence;
  private scheduler: Scheduler;
  private readonly events: EventStream;
  private readonly clients = new Map<string, HandoffClient>();
  private subscription: Subscription | undefined;
  private subscribing: Promise<void> | undefined;
  private subscribeWarned = false;
  private beatTask: ScheduledTask | undefined;
  private beatHealthy = true;
  private destroyed = false;
  readonly [marker] = true;

  constructor(options: HandoffOptions) {
    if (!isWellFormedText(options.jobId)) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        'a handoff needs a non-empty jobId of well-formed UTF-16 (no lone surrogates)',
      );
    }
    this.jobId = options.jobId;
    this.topic = topicOf(options.jobId);
    this.messenger = options.messenger;
    this.presence = options.presence;
    this.scheduler = options.scheduler ?? new SystemScheduler();
    this.events = new EventStream(options.logger ?? consoleLogger());
    try {
      this.timings = resolveTimings(options.timings);
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff timings');
    }
  }

  /**
   * The one handoff of server `jobId`, made on first use with these ports; later calls get
   * the same instance whatever ports they pass.
   */
  static shared(jobId: string, options: Omit<HandoffOptions, 'jobId'>): Handoff {
    const existing = Handoff.servers.get(jobId);
    if (existing) return existing;
    const handoff = new Handoff({ ...options, jobId });
    Handoff.servers.set(jobId, handoff);
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
    void this.ensureSubscribed();
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
      await this.retryOnce(this.timings.presenceRetrySeconds, () =>
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
      const value = await this.retryOnce(this.timings.presenceRetrySeconds, () =>
        this.presence.get(jobId),
      );
      return value !== undefined;
    } catch {
      return undefined;
    }
  }

  /** Asks `holder` to release `key` of driver `driverName`; `token` names the lock seen. */
  async request(driverName: string, key: string, holder: string, token?: string): Promise<void> {
    await this.publish(holder, requestMessage(driverName, key, this.jobId, token));
  }

  /** Tells `requester` that this server no longer holds `key` of driver `driverName`. */
  async reply(driverName: string, key: string, requester: string): Promise<void> {
    await this.publish(requester, replyMessage(driverName, key));
  }

  /** True while this server receives requests (false: subscribe failed, polling). */
  get subscribed(): boolean {
    return this.subscription !== undefined;
  }

  /** Stops the beat, disconnects the subscription and forgets the drivers. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.beatTask?.cancel();
    this.beatTask = undefined;
    this.clients.clear();
    if (Handoff.servers.get(this.jobId) === this) Handoff.servers.delete(this.jobId);
    await this.subscribing;
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.unsubscribe();
  }

  private async tick(): Promise<void> {
    // A failed subscription is retried with each beat: handoff polls until it is back.
    if (!this.subscription && this.clients.size > 0) void this.ensureSubscribed();
    await this.beat();
  }

  private ensureSubscribed(): Promise<void> {
    if (this.subscription || this.destroyed) return Promise.resolve();
    this.subscribing ??= this.subscribe().finally(() => {
      this.subscribing = undefined;
    });
    return this.subscribing;
  }

  private async subscribe(): Promise<void> {
    try {
      const subscription = await this.messenger.subscribe(this.topic, (message) =>
        this.route(message),
      );
      if (this.destroyed) {
        await subscription.unsubscribe();
        return;
      }
      this.subscription = subscription;
      this.subscribeWarned = false;
      this.emit({ type: 'handoff.subscribed', topic: this.topic });
    } catch (error) {
      if (this.subscribeWarned) return;
      this.subscribeWarned = true;
      const failure = toDataDriverError(error, ErrorCode.BackendFailed, 'subscribe failed');
      this.emit({ type: 'handoff.subscribe-failed', topic: this.topic, error: failure });
    }
  }

  private route(raw: unknown): void {
    const message = parseHandoffMessage(raw);
    if (!message) return;
    const client = this.clients.get(message.D);
    if (!client) return;
    if (message.T === 'Q') client.receiveHandoffRequest(message.K, message.R, message.L);
    else client.receiveHandoffReply(message.K);
  }

  private async publish(jobId: string, message: JsonObject): Promise<void> {
    try {
      await this.retryOnce(this.timings.messageRetrySeconds, () =>
        this.messenger.publish(topicOf(jobId), message),
      );
    } catch (error) {
      throw toDataDriverError(
        error,
        ErrorCode.BackendFailed,
        `publish to ${topicOf(jobId)} failed`,
      );
    }
  }

  private async retryOnce<T>(delaySeconds: number, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch {
      await sleep(this.scheduler, delaySeconds * 1000);
      return call();
    }
  }

  private emit(event: EventPayload): void {
    this.events.emit({
      ...event,
      time: this.scheduler.now(),
      jobId: this.jobId,
    } as DataDriverEvent);
  }

  private assertLive(): void {
    if (this.destroyed) throw new DataDriverError(ErrorCode.Closed, 'this handoff was destroyed');
  }
}
