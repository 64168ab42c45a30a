/**
 * One handoff per server: a subscription to `CKHandoff_<jobId>` that routes release requests
 * and replies to the drivers by name, and a presence beat (`CKPresence`, key = jobId) that
 * tells other servers this one is alive. Shared by every driver on the server.
 */

import { consoleLogger } from './console-logger.js';
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import { type EventListener, type EventPayload, EventStream } from './events.js';
import { isWellFormedText } from './keys.js';
import type { Logger } from './ports/logger.js';
import type { Messenger, Subscription } from './ports/messenger.js';
import type { Presence } from './ports/presence.js';
import type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';
import {
  MAX_MESSAGE_BYTES,
  MessageBudget,
  type MessageLimits,
  resolveMessageLimits,
  utf8Bytes,
} from './rules/index.js';
import { sleep } from './signal.js';
import { type HandoffSigning, Signer } from './signing.js';
import { SystemScheduler } from './system-scheduler.js';
import { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './timings.js';
import {
  type HandoffMessage,
  parseHandoffMessage,
  replyMessage,
  requestMessage,
  topicOf,
} from './wire.js';

/** What a handoff routes messages to: a DataDriver, by its name. */
export interface HandoffClient {
  readonly name: string;
  /** Another server asks this driver to release `key`; `token` names the lock it saw. */
  receiveHandoffRequest(key: string, requester: string, token: string | undefined): void;
  /** The server this driver asked no longer holds `key`. */
  receiveHandoffReply(key: string): void;
  /** Profiles this driver holds or is loading: each adds to the server's publish budget. */
  readonly profileCount?: number;
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
  /** How many messages this server publishes and accepts (MessagingService's by default). */
  readonly limits?: Partial<MessageLimits>;
  /** Sign every message with the fleet's key and drop unsigned ones (off by default). */
  readonly signing?: HandoffSigning;
}

/** A dropped message warns at most this often per direction: a flood must not flood the log. */
const LIMIT_WARNING_MS = 60_000;

const marker = Symbol.for('datadriver.handoff');

export class Handoff {
  /** Presence beat period in seconds (seed). */
  static readonly BEAT_SECONDS = DEFAULT_TIMINGS.beatSeconds;
  /** Presence key lifetime in seconds (seed). */
  static readonly PRESENCE_TTL_SECONDS = DEFAULT_TIMINGS.presenceTtlSeconds;
  private static readonly servers = new Map<string, Handoff>();

  readonly jobId: string;
  readonly timings: HandoffTimings;
  readonly limits: MessageLimits;
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
  private readonly publishBudget = new MessageBudget();
  private readonly receiveBudget = new MessageBudget();
  private readonly limitWarnedAt = new Map<string, number>();
  private readonly signer: Signer | undefined;
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
    this.events = new EventStream(options.logger ?? consoleLogger(), () => ({
      time: this.scheduler.now(),
      jobId: this.jobId,
    }));
    try {
      this.timings = resolveTimings(options.timings);
      this.limits = resolveMessageLimits(options.limits);
      this.signer = options.signing === undefined ? undefined : new Signer(options.signing);
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff options');
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
    // Counted before it is read: a flood costs this server the budget, never more.
    if (!this.receiveBudget.take(this.scheduler.now(), this.limits.receivePerMinute)) {
      this.limited('receive');
      return;
    }
    const message = parseHandoffMessage(raw);
    if (!message || !this.signedEnough(message, raw)) return;
    const client = this.clients.get(message.D);
    if (!client) return;
    if (message.T === 'Q') client.receiveHandoffRequest(message.K, message.R, message.L);
    else client.receiveHandoffReply(message.K);
  }

  private async publish(jobId: string, message: HandoffMessage): Promise<void> {
    const bytes = utf8Bytes(JSON.stringify(this.signer ? this.signer.sign(message) : message));
    if (bytes > MAX_MESSAGE_BYTES) {
      throw new DataDriverError(
        ErrorCode.TooLarge,
        `a handoff message to ${topicOf(jobId)} would be ${bytes} bytes, over the ${MAX_MESSAGE_BYTES} a message may carry; it was not sent`,
        { details: { bytes, maxBytes: MAX_MESSAGE_BYTES } },
      );
    }
    if (!this.publishBudget.take(this.scheduler.now(), this.publishPerMinute())) {
      this.limited('publish');
      throw new DataDriverError(
        ErrorCode.Throttled,
        `handoff publishes over ${this.publishPerMinute()} messages a minute; the message to ${topicOf(jobId)} was not sent`,
      );
    }
    try {
      const signed = this.signer ? this.signer.sign(message) : message;
      await this.retryOnce(this.timings.messageRetrySeconds, () =>
        this.messenger.publish(topicOf(jobId), signed),
      );
    } catch (error) {
      throw toDataDriverError(
        error,
        ErrorCode.BackendFailed,
        `publish to ${topicOf(jobId)} failed`,
      );
    }
  }

  /** True when `message` may be acted on: no signing here, or a valid (or allowed) signature. */
  private signedEnough(message: HandoffMessage, raw: unknown): boolean {
    if (!this.signer) return true;
    const check = this.signer.check(message, (raw as { S?: unknown }).S);
    if (check === 'valid' || (check === 'unsigned' && this.signer.acceptUnsigned)) return true;
    const first = this.firstInAMinute(`rejected:${check}`);
    this.emit({ type: 'handoff.rejected', reason: check, first });
    return false;
  }

  /** True the first time `what` happens in a minute: the one occurrence that warns. */
  private firstInAMinute(what: string): boolean {
    const now = this.scheduler.now();
    const warnedAt = this.limitWarnedAt.get(what);
    const first = warnedAt === undefined || now - warnedAt >= LIMIT_WARNING_MS;
    if (first) this.limitWarnedAt.set(what, now);
    return first;
  }

  /** This server's publish budget: a base, and more for each profile its drivers hold. */
  private publishPerMinute(): number {
    let profiles = 0;
    for (const client of this.clients.values()) profiles += client.profileCount ?? 0;
    return this.limits.publishPerMinute + this.limits.publishPerPlayerPerMinute * profiles;
  }

  private limited(direction: 'publish' | 'receive'): void {
    const first = this.firstInAMinute(direction);
    const perMinute =
      direction === 'publish' ? this.publishPerMinute() : this.limits.receivePerMinute;
    this.emit({ type: 'handoff.limited', direction, perMinute, first });
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
    this.events.emit(event);
  }

  private assertLive(): void {
    if (this.destroyed) throw new DataDriverError(ErrorCode.Closed, 'this handoff was destroyed');
  }
}
