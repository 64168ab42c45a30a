/**
 * What one server's handoff lets through, both ways: MessagingService's size and rate limits
 * (`rules/message-budget.ts`) and, with signing on, the fleet's signatures. A message out is
 * signed once, measured, and counted against the publish budget; a message in is counted
 * against the receive budget before it is read, and acted on only with a valid signature.
 * Each kind of drop warns at most once a minute: a flood must not flood the log.
 */

import type { EventPayload } from '../events/events.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import { sameFields } from '../rules/config-checks.js';
import {
  MAX_MESSAGE_BYTES,
  MessageBudget,
  type MessageLimits,
  resolveMessageLimits,
  utf8Bytes,
} from '../rules/index.js';
import { type HandoffSigning, Signer } from './signing.js';
import { type HandoffMessage, type HandoffReply, type HandoffRequest, topicOf } from './wire.js';

/** A dropped message warns at most this often per kind. */
const WARNING_EVERY_MS = 60_000;

export class MessageGate {
  readonly limits: MessageLimits;
  readonly #signer: Signer | undefined;
  readonly #publishBudget = new MessageBudget();
  readonly #receiveBudget = new MessageBudget();
  readonly #warnedAt = new Map<string, number>();

  constructor(
    limits: Partial<MessageLimits> | undefined,
    signing: HandoffSigning | undefined,
    private readonly now: () => number,
    private readonly report: (event: EventPayload) => void,
  ) {
    try {
      this.limits = resolveMessageLimits(limits);
      this.#signer = signing === undefined ? undefined : new Signer(signing);
    } catch (error) {
      throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff options');
    }
  }

  /**
   * What of `limits` and `signing` differs from this gate's (`undefined`: nothing, or not
   * given): a shared handoff must not silently drop a driver's signing or limits.
   */
  differences(limits?: Partial<MessageLimits>, signing?: HandoffSigning): string[] {
    const differs: string[] = [];
    if (signing !== undefined && !this.#signer?.sameAs(new Signer(signing))) {
      differs.push('signing');
    }
    if (limits !== undefined) {
      if (!sameFields(resolveMessageLimits(limits), this.limits)) differs.push('limits');
    }
    return differs;
  }

  /**
   * `message` as it goes on the wire to `jobId` (signed once, when signing is on), or
   * `Data.TooLarge` over 1 kB, or `Data.Throttled` over `perMinute`.
   */
  outgoing(message: HandoffMessage, jobId: string, perMinute: number): HandoffMessage {
    const sent = this.#signer ? this.#signer.sign(message) : message;
    const bytes = utf8Bytes(JSON.stringify(sent));
    if (bytes > MAX_MESSAGE_BYTES) {
      throw new DataDriverError(
        ErrorCode.TooLarge,
        `a handoff message to ${topicOf(jobId)} would be ${bytes} bytes, over the ${MAX_MESSAGE_BYTES} a message may carry; it was not sent`,
        { details: { bytes, maxBytes: MAX_MESSAGE_BYTES } },
      );
    }
    if (!this.#publishBudget.take(this.now(), perMinute)) {
      this.limited('publish', perMinute);
      throw new DataDriverError(
        ErrorCode.Throttled,
        `handoff publishes over ${perMinute} messages a minute; the message to ${topicOf(jobId)} was not sent`,
      );
    }
    return sent;
  }

  /** True when a message that arrived may be read: counted before it is parsed. */
  admit(): boolean {
    if (this.#receiveBudget.take(this.now(), this.limits.receivePerMinute)) return true;
    this.limited('receive', this.limits.receivePerMinute);
    return false;
  }

  /** True when `message` may be acted on: no signing here, or a valid (or allowed) signature. */
  trusted(message: HandoffMessage, raw: unknown): boolean {
    const signer = this.#signer;
    if (!signer) return true;
    const check = signer.check(message, (raw as { S?: unknown }).S);
    if (check === 'valid' || (check === 'unsigned' && signer.acceptUnsigned)) return true;
    this.report({ type: 'handoff.rejected', reason: check, first: this.firstInAMinute(check) });
    return false;
  }

  /** True when this gate signs its messages: only then may a message carry a hand-over part. */
  get signs(): boolean {
    return this.#signer !== undefined;
  }

  /**
   * Whether a trusted message's hand-over part may be acted on: only when its own signature
   * `SH` is valid. A request's token (`H`): a handed lock names its receiver, which alone can
   * clear it while it beats presence, so a forged one (any server, any token) would lock the key
   * out for as long as that server runs, where a forged request without it only kicks. A
   * reply's record (`H`, `V`, `J`): the load it names takes the lock from it without reading
   * the store, so a forged one could hand it stale data. A message whose part fails is still
   * a message: it is acted on without that part.
   */
  handOverTrusted(message: HandoffRequest | HandoffReply, raw: unknown): boolean {
    if (message.H === undefined) return true;
    const signer = this.#signer;
    if (!signer) return false;
    return signer.checkHandOver(message, (raw as { SH?: unknown }).SH) === 'valid';
  }

  private limited(direction: 'publish' | 'receive', perMinute: number): void {
    const first = this.firstInAMinute(direction);
    this.report({ type: 'handoff.limited', direction, perMinute, first });
  }

  /** True the first time `what` happens in a minute: the one occurrence that warns. */
  private firstInAMinute(what: string): boolean {
    const now = this.now();
    const warnedAt = this.#warnedAt.get(what);
    const first = warnedAt === undefined || now - warnedAt >= WARNING_EVERY_MS;
    if (first) this.#warnedAt.set(what, now);
    return first;
  }
}
