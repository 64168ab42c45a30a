/**
 * A driver's handoff, the one owner of "is handoff on here": a `Handoff` given in the options
 * (used as given), else the server's shared one, turned on at attach by the seed's rule
 * (`handoffByDefault`) and made with the driver's signing, limits and timings (a shared one
 * already running with others refuses the attach), else none. While it is on, this server
 * beats presence, so its locks carry the presence flag and it reads other holders' presence.
 * A driver joining the shared handoff brings its messenger and presence: the server beats and
 * listens on each backend its drivers use, and this driver's requests, replies and presence
 * reads go through its own (a driver on another backend than the first one's is served there).
 */
import type { EventStream } from '../events/event-stream.js';
import type { Logger } from '../ports/logger.js';
import type { Messenger } from '../ports/messenger.js';
import type { Presence } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { Store } from '../ports/store.js';
import { handoffByDefault } from '../rules/handoff-rule.js';
import type { MessageLimits } from '../rules/message-budget.js';
import { nudgeMessage } from '../rules/messages/nudge.js';
import { Handoff, type HandoffClient, type HandoffMembership } from './handoff.js';
import { type HandoffSigning, Signer } from './signing.js';
import type { HandoffTimings } from './timings.js';
import { topicOf } from './wire.js';

/** What the link reads of the driver's options (`DataDriverOptions`, checked by then). */
export interface LinkOptions {
  readonly name: string;
  readonly store: Store;
  readonly messenger?: Messenger;
  readonly presence?: Presence;
  readonly jobId?: string;
  readonly handoff?: Handoff | boolean;
  readonly handoffSigning?: HandoffSigning;
  readonly handoffLimits?: Partial<MessageLimits>;
  readonly timings?: Partial<HandoffTimings>;
}

export class HandoffLink {
  #handoff: Handoff | undefined;
  #owned = false;
  readonly #requests = new FailureStreak();
  readonly #replies = new FailureStreak();
  #attached = false;
  #warnedUnattached = false;
  /** Signs nudges sent with no handoff (a webhook process); made at the first such nudge. */
  #nudgeSigner: Signer | undefined;

  constructor(
    private readonly client: HandoffClient,
    private readonly options: LinkOptions,
    private readonly scheduler: Scheduler,
    private readonly logger: Logger,
    /** The driver's own timings, used while it has no handoff. */
    private readonly ownTimings: HandoffTimings,
    /** The driver's events: a shared handoff's events reach them too. */
    private readonly events: EventStream,
  ) {}

  /** Once the driver is built: a `Handoff` given in the options is used as given. */
  start(): void {
    if (Handoff.isInstance(this.options.handoff)) this.use(this.options.handoff, false);
  }

  /** The handoff in use, or `undefined` when handoff is off. */
  get handoff(): Handoff | undefined {
    return this.#handoff;
  }

  /** True while this server beats presence: its locks carry the flag, and it reads others'. */
  get beatsPresence(): boolean {
    return this.#handoff !== undefined;
  }

  /** The clock constants of the waits: the handoff's, else the driver's own. */
  get timings(): HandoffTimings {
    return this.#handoff?.timings ?? this.ownTimings;
  }

  /**
   * At attach: refuses what turning the server's shared handoff on (by the seed's rule) would
   * refuse, changing nothing, and returns what does it: a refused attach leaves the driver as
   * it was, free to attach again once the cause is fixed.
   */
  prepareAttach(hostJobId: string): () => void {
    const options = this.#handoff ? undefined : this.sharedOptions(hostJobId);
    if (options) Handoff.assertSharable(hostJobId, options, this.client);
    return () => {
      this.#attached = true;
      if (!options || this.#handoff) return;
      const { messenger, presence } = options;
      this.use(Handoff.shared(hostJobId, options), true, {
        ports: { messenger, presence },
        events: this.events,
        logger: this.logger,
      });
    };
  }

  /** The shared handoff's options when the seed's rule turns it on at attach, else none. */
  private sharedOptions(hostJobId: string) {
    const { store, messenger, presence, handoff, jobId } = this.options;
    const on = handoffByDefault({
      option: handoff === false ? 'off' : 'default',
      testJobId: jobId !== undefined,
      hostJobId,
      sharedStore: !store.processLocal,
      sharedMessenger: messenger !== undefined && !messenger.processLocal,
      sharedPresence: presence !== undefined && !presence.processLocal,
    });
    if (!on || !messenger || !presence) return undefined;
    return {
      messenger,
      presence,
      scheduler: this.scheduler,
      logger: this.logger,
      ...(this.options.handoffSigning ? { signing: this.options.handoffSigning } : {}),
      ...(this.options.handoffLimits ? { limits: this.options.handoffLimits } : {}),
      ...(this.options.timings ? { timings: this.options.timings } : {}),
    };
  }

  /**
   * At each load: a driver that could hand over (shared messenger and presence, no jobId or
   * `handoff: false` given) but was never attached runs with handoff off under a random jobId,
   * so other servers wait its locks out. Said once, at its first lock write.
   */
  checkAttached(): void {
    if (this.#warnedUnattached || this.#attached || this.#handoff) return;
    const { messenger, presence, handoff, jobId, name } = this.options;
    if (handoff === false || jobId !== undefined) return;
    if (!messenger || messenger.processLocal || !presence || presence.processLocal) return;
    this.#warnedUnattached = true;
    this.logger.warn(
      `${name} loads with handoff off: it has a shared messenger and presence but was never attached to a host, so its jobId is random and other servers wait out its locks (lockWaitSeconds). Call attach(host) before the first load, or pass handoff: false to run without handoff and silence this.`,
    );
  }

  /** A reply went out: the next failure warns again. */
  replySent(): void {
    this.#replies.succeeded();
  }

  /** A reply failed: true for the first since one went out (the one that warns). */
  replyFailed(): boolean {
    return this.#replies.failed();
  }

  /** A release request went out: the next failure warns again. */
  requestSent(): void {
    this.#requests.succeeded();
  }

  /** A release request failed: true for the first since one went out (the one that warns). */
  requestFailed(): boolean {
    return this.#requests.failed();
  }

  /**
   * Tells `holder` that `key` has a message pending: through the handoff when it is on (signed,
   * counted), else straight on the driver's messenger, signed with `handoffSigning` when given
   * (a webhook process holds nothing and runs no handoff). Nothing without a messenger.
   */
  async nudge(key: string, holder: string): Promise<void> {
    const { messenger, handoffSigning, name } = this.options;
    if (this.#handoff) return this.#handoff.nudge(name, key, holder);
    if (!messenger) return;
    const message = nudgeMessage(name, key);
    if (handoffSigning) this.#nudgeSigner ??= new Signer(handoffSigning);
    const signed = this.#nudgeSigner ? this.#nudgeSigner.sign(message) : message;
    await messenger.publish(topicOf(holder), signed);
  }

  /** At close: leaves the handoff, destroying a shared one its last driver leaves. */
  async leave(): Promise<void> {
    const handoff = this.#handoff;
    if (!handoff) return;
    await handoff.unregister(this.client);
    if (this.#owned && handoff.clientCount === 0) await handoff.destroy();
  }

  private use(handoff: Handoff, owned: boolean, membership?: HandoffMembership): void {
    this.#handoff = handoff;
    this.#owned = owned;
    handoff.register(this.client, membership);
    handoff.start(this.scheduler);
  }
}

/** A run of failures of one kind of send: only its first is worth a warning. */
class FailureStreak {
  #failing = false;

  succeeded(): void {
    this.#failing = false;
  }

  /** True for the first failure since a success. */
  failed(): boolean {
    const first = !this.#failing;
    this.#failing = true;
    return first;
  }
}
