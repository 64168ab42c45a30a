/**
 * The messages between servers' handoffs, both ways. A request or reply out passes the gate
 * (signed, measured, counted against the publish budget, which grows with the profiles the
 * attached drivers hold) and is published once more after a failure; a message in is
 * counted, read and checked by the gate, then handed to the driver it names.
 */

import { retryOnce } from '../events/signal.js';
import { copyWith } from '../ports/copy-with.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import { MAX_MESSAGE_BYTES, type Messenger } from '../ports/messenger.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { MessageGate } from './gate.js';
import type { HandoffMembers } from './members.js';
import {
  type HandedRecord,
  type HandoffMessage,
  type HandoffReply,
  type HandoffRequest,
  parseHandoffMessage,
  replyMessage,
  topicOf,
  withoutHandOver,
} from './wire.js';

export class HandoffMessages {
  constructor(
    private readonly gate: MessageGate,
    private readonly members: HandoffMembers,
    /** The handoff's scheduler now (`start` may change it), and the publish's retry delay. */
    private readonly retry: () => { readonly scheduler: Scheduler; readonly delayMs: number },
  ) {}

  /** A message from the bus, as the subscription delivers it. */
  receive(raw: unknown): void {
    // Counted before it is read: a flood costs this server the budget, never more.
    if (!this.gate.admit()) return;
    const message = parseHandoffMessage(raw);
    if (!message || !this.gate.trusted(message, raw)) return;
    // A hand-over part whose signature fails is dropped, not the message: a request is still
    // answered, and a reply still wakes the load, which then reads the store.
    if (message.T !== 'M' && !this.gate.handOverTrusted(message, raw)) {
      this.members.deliver(withoutHandOver(message));
      return;
    }
    this.members.deliver(message);
  }

  /** Publishes `message` to server `jobId` through `messenger` (`Data.BackendFailed` if it fails twice). */
  async send(messenger: Messenger, jobId: string, message: HandoffMessage): Promise<void> {
    const sent = this.gate.outgoing(message, jobId, this.publishPerMinute());
    const { scheduler, delayMs } = this.retry();
    try {
      await retryOnce(scheduler, delayMs, () => messenger.publish(topicOf(jobId), sent));
    } catch (error) {
      throw toDataDriverError(
        error,
        ErrorCode.BackendFailed,
        `publish to ${topicOf(jobId)} failed`,
      );
    }
  }

  /**
   * Publishes release request `request` to server `jobId`, asking for the lock to be handed to
   * `handTo` only under signing (a holder honours no unsigned hand-over) and while the request
   * still fits a message with it; a plain request otherwise.
   */
  async request(
    messenger: Messenger,
    jobId: string,
    request: HandoffRequest,
    handTo: string | undefined,
  ): Promise<void> {
    const handing = handTo !== undefined && request.L !== undefined;
    await this.sendHanding(
      messenger,
      jobId,
      request,
      handing ? copyWith(request, { H: handTo }) : undefined,
    );
  }

  /**
   * Publishes reply `reply` to server `jobId`, with the record the release handed to that
   * server's load (`handed`) only under signing and while the reply still fits a message with
   * it; a plain reply otherwise, and the load reads the store.
   */
  async reply(
    messenger: Messenger,
    jobId: string,
    reply: HandoffReply,
    handed: HandedRecord | undefined,
  ): Promise<void> {
    // A record that alone is over a message's size is not stringified again to find it out.
    const fits = handed !== undefined && handed.json.length <= MAX_MESSAGE_BYTES;
    const full = fits ? replyMessage(reply.D, reply.K, handed) : undefined;
    await this.sendHanding(messenger, jobId, reply, full);
  }

  /** Sends `handing` (a message with its hand-over part) when this server signs and it fits, else `plain`. */
  private async sendHanding(
    messenger: Messenger,
    jobId: string,
    plain: HandoffMessage,
    handing: HandoffMessage | undefined,
  ): Promise<void> {
    if (handing !== undefined && this.gate.signs) {
      try {
        await this.send(messenger, jobId, handing);
        return;
      } catch (error) {
        if (!DataDriverError.is(error, ErrorCode.TooLarge)) throw error;
      }
    }
    await this.send(messenger, jobId, plain);
  }

  /** This server's publish budget: a base, and more for each profile its drivers hold. */
  private publishPerMinute(): number {
    const { publishPerMinute, publishPerPlayerPerMinute } = this.gate.limits;
    return publishPerMinute + publishPerPlayerPerMinute * this.members.profileCount();
  }
}
