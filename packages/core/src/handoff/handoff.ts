/**
 * One handoff per server: a subscription to `CKHandoff_<jobId>` that routes release requests
 * and replies to the drivers by name, and a presence beat (`CKPresence`, key = jobId) that
 * tells other servers this one is alive. Shared by every driver on the server: a driver that
 * brings its own messenger and presence (another backend) adds a beat and a subscription on
 * them (`backends.ts`), and its requests, replies and presence reads go through them.
 */

import { EventStream } from '../events/event-stream.js';
import type { EventListener, EventPayload } from '../events/events.js';
import { consoleLogger } from '../ports/console-logger.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { ScheduledTask, Scheduler, TaskPriority } from '../ports/scheduler.js';
import { SystemScheduler } from '../ports/system-scheduler.js';
import type { MessageLimits } from '../rules/index.js';
import { nudgeMessage } from '../rules/messages/nudge.js';
import { HandoffBackends } from './backends.js';
import { PresenceBeat } from './beat.js';
import { MessageGate } from './gate.js';
import { HandoffMembers } from './members.js';
import { HandoffMessages } from './messages.js';
import {
  checkJobId,
  type HandoffClient,
  type HandoffMembership,
  type HandoffOptions,
  refuseOtherOptions,
} from './options.js';
import { type PresenceRead, readPresence } from './presence-read.js';
import { TopicSubscription } from './subscription.js';
import { DEFAULT_TIMINGS, type HandoffTimings, resolveTimings } from './timings.js';
import { type HandedRecord, replyMessage, requestMessage, topicOf } from './wire.js';

export type { HandoffClient, HandoffMembership, HandoffOptions } from './options.js';
export type { PresenceRead } from './presence-read.js';

const marker = Symbol.for('datadriver.handoff');

/** The one handoff of each server (`Handoff.shared`), by jobId. */
const sharedHandoffs = new Map<string, Handoff>();

export class Handoff {
  /** The lock handoff's presence beat period, and a presence key's lifetime, in seconds. */
  static readonly BEAT_SECONDS = DEFAULT_TIMINGS.beatSeconds;
  static readonly PRESENCE_TTL_SECONDS = DEFAULT_TIMINGS.presenceTtlSeconds;

  readonly jobId: string;
  readonly timings: HandoffTimings;
  /** The topic this server listens on. */
  readonly topic: string;
  private scheduler: Scheduler;
  private readonly events: EventStream;
  /** The attached drivers: messages are routed to them, events reach them. */
  private readonly members: HandoffMembers;
  private readonly backends: HandoffBackends<PresenceBeat, TopicSubscription>;
  private beatTask: ScheduledTask | undefined;
  private destroyed = false;
  private readonly gate: MessageGate;
  private readonly messages: HandoffMessages;
  readonly [marker] = true;

  constructor(options: HandoffOptions) {
    this.jobId = checkJobId(options.jobId);
    this.topic = topicOf(options.jobId);
    this.scheduler = options.scheduler ?? new SystemScheduler();
    const logger = options.logger ?? consoleLogger();
    const now = () => this.scheduler.now();
    this.events = new EventStream(logger, () => ({ time: now(), jobId: this.jobId }));
    this.members = new HandoffMembers(this.events, logger);
    try {
      this.timings = resolveTimings(options.timings);
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff options');
    }
    const report = (event: EventPayload) => this.members.emit(event);
    this.backends = new HandoffBackends(
      { messenger: options.messenger, presence: options.presence },
      {
        beat: (presence) =>
          new PresenceBeat(presence, this.jobId, this.timings, () => this.scheduler, report),
        listen: (messenger) =>
          new TopicSubscription(
            messenger,
            this.topic,
            (message) => this.messages.receive(message),
            report,
          ),
        stop: (subscription) => subscription.end(),
      },
    );
    this.gate = new MessageGate(options.limits, options.signing, now, report);
    this.messages = new HandoffMessages(this.gate, this.members, () => ({
      scheduler: this.scheduler,
      delayMs: this.timings.messageRetrySeconds * 1000,
    }));
  }

  /** How many messages this server publishes and accepts. */
  get limits(): MessageLimits {
    return this.gate.limits;
  }

  /**
   * The one handoff of server `jobId`, made on first use with these options; later calls get
   * the same instance whatever ports they pass (a driver attached with other ports adds them
   * when it registers: see `register`). Signing, limits or timings given that differ
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

  /**
   * @internal Refuses what `shared(jobId, options)` and registering `client` on it would
   * refuse, changing nothing (a refused attach leaves no trace).
   */
  static assertSharable(
    jobId: string,
    options: Omit<HandoffOptions, 'jobId'>,
    client: HandoffClient,
  ): void {
    const existing = sharedHandoffs.get(jobId);
    if (!existing) return;
    existing.assertSameAs(options);
    existing.assertRegistrable(client);
  }

  /** True for a Handoff from any copy of this package. */
  static isInstance(value: unknown): value is Handoff {
    return typeof value === 'object' && value !== null && marker in value;
  }

  /** Subscribes to what this handoff reports (beat failures, subscription state). */
  on(listener: EventListener): () => void {
    return this.events.on(listener);
  }

  /**
   * Routes messages for `client.name` to `client`, subscribing on first use. With a
   * `membership`, the client's ports join this server's backends (a beat on its presence, a
   * subscription on its messenger, each once per distinct port object), its requests, replies
   * and presence reads go through them, and this handoff's events reach its event stream.
   */
  register(client: HandoffClient, membership?: HandoffMembership): void {
    this.assertRegistrable(client);
    this.members.add(client, membership);
    const beaten = this.backends.beats;
    if (membership?.ports) this.backends.use(client.name, membership.ports);
    for (const subscription of this.backends.listening) void subscription.ensure();
    // A presence new to this server is beaten now; the others keep their schedule.
    if (this.beatTask) {
      for (const beat of this.backends.beats) if (!beaten.includes(beat)) void this.beatOnce(beat);
    }
  }

  /** Refuses what `register(client)` would refuse, changing nothing. */
  assertRegistrable(client: HandoffClient): void {
    this.assertLive();
    this.members.assertFree(client);
  }

  /** Stops routing to `client`; its ports are no longer beaten or listened on unless others use them. */
  async unregister(client: HandoffClient): Promise<void> {
    if (!this.members.remove(client)) return;
    await this.backends.leave(client.name);
  }

  /** Number of drivers registered. */
  get clientCount(): number {
    return this.members.size;
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

  /**
   * Writes one presence beat on each presence this server's drivers use. The first failure
   * after a success warns; while a beat is in flight on a presence, no other is sent there.
   */
  async beat(): Promise<void> {
    await Promise.all(this.backends.beats.map((beat) => this.beatOnce(beat)));
  }

  /**
   * Whether server `jobId` beats presence: `true` for a beat within the TTL (always for this
   * server), `false` when a read found none, `undefined` when the read failed. Read on the
   * presence of driver `driverName` when given (its backend's), else this handoff's own.
   */
  async isAlive(jobId: string, driverName?: string): Promise<boolean | undefined> {
    return (await this.readPresence(jobId, driverName)).alive;
  }

  /**
   * `isAlive`, with the ms the key has left when alive and the presence tells
   * (`Presence.getEntry`): a waiting load reads again as the key expires.
   */
  async readPresence(jobId: string, driverName?: string): Promise<PresenceRead> {
    if (jobId === this.jobId) return { alive: true };
    const retryMs = this.timings.presenceRetrySeconds * 1000;
    return readPresence(this.portsOf(driverName).presence, this.scheduler, retryMs, jobId);
  }

  /**
   * Asks `holder` to release `key` of driver `driverName`; `token` names the lock seen,
   * `handTo` the token of the load that asks, when it asks for the lock to be handed to it.
   */
  async request(
    driverName: string,
    key: string,
    holder: string,
    token?: string,
    handTo?: string,
  ): Promise<void> {
    const reason = this.members.requestReason(driverName, key);
    const message = requestMessage(driverName, key, this.jobId, token, reason);
    await this.messages.request(this.portsOf(driverName).messenger, holder, message, handTo);
  }

  /** Tells `requester` this server let go of `key`, with `handed` when signed and it fits. */
  async reply(driverName: string, key: string, requester: string, handed?: HandedRecord) {
    const { messenger } = this.portsOf(driverName);
    await this.messages.reply(messenger, requester, replyMessage(driverName, key), handed);
  }

  /** Tells `holder` that `key` of driver `driverName` has a message pending. */
  async nudge(driverName: string, key: string, holder: string): Promise<void> {
    const message = nudgeMessage(driverName, key);
    await this.messages.send(this.portsOf(driverName).messenger, holder, message);
  }

  /** True while this server receives requests on every messenger (false: a subscribe failed, polling). */
  get subscribed(): boolean {
    return this.backends.listening.every((subscription) => subscription.active);
  }

  /** How many presences this server beats on and messengers it listens on: one per backend. */
  get backendCount(): { readonly presences: number; readonly messengers: number } {
    return { presences: this.backends.beats.length, messengers: this.backends.listening.length };
  }

  /** Stops the beat, disconnects the subscription and forgets the drivers. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.beatTask?.cancel();
    this.beatTask = undefined;
    this.members.clear();
    if (sharedHandoffs.get(this.jobId) === this) sharedHandoffs.delete(this.jobId);
    await Promise.all(this.backends.listening.map((subscription) => subscription.end()));
  }

  private async tick(): Promise<void> {
    // A failed subscription is retried with each beat: handoff polls until it is back.
    if (this.members.size > 0) {
      for (const subscription of this.backends.listening) {
        if (!subscription.active) void subscription.ensure();
      }
    }
    await this.beat();
  }

  private beatOnce(beat: PresenceBeat): Promise<void> {
    return this.destroyed ? Promise.resolve() : beat.beat();
  }

  private portsOf(driverName: string | undefined) {
    return driverName === undefined ? this.backends.own : this.backends.portsOf(driverName);
  }

  /** Refuses options a shared handoff would otherwise silently ignore. */
  private assertSameAs(options: Omit<HandoffOptions, 'jobId'>): void {
    const differs = this.gate.differences(options.limits, options.signing);
    refuseOtherOptions(this.jobId, differs, this.timings, options.timings);
  }

  private assertLive(): void {
    if (this.destroyed) throw new DataDriverError(ErrorCode.Closed, 'this handoff was destroyed');
  }
}
