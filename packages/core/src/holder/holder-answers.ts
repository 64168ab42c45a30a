/**
 * The holder's side of handoff: what this server does with another server's request to
 * release a key, and the replies it owes when a session ends.
 */
import type { DriverContext } from '../context/context.js';
import type { HostSlot } from '../context/host-slot.js';
import type { KickCause, ReleaseReason } from '../events/events.js';
import { type HandedRecord, isHandOverToken, type RequestReason } from '../handoff/wire.js';
import { describeError } from '../ports/errors.js';
import { MAX_MESSAGE_BYTES } from '../ports/messenger.js';
import { recordJson } from '../ports/record-json.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { SessionRegistry } from '../registry/registry.js';
import type { RequestAction } from '../rules/index.js';
import { decideRequest, lockedFor } from '../rules/index.js';
import { releaseOrphanedLock } from '../session/orphan-release.js';
import type { ProfileSession } from '../session/profile-session.js';

export class HolderAnswers {
  constructor(
    private readonly context: DriverContext,
    private readonly registry: SessionRegistry,
    private readonly host: HostSlot,
  ) {}

  /**
   * Acts on `decideRequest`: reply, wait for a load or a release, retry it, kick, release.
   * `handTo`: the requester's load's token, which the release may write as its lock.
   */
  receive(
    key: string,
    requester: string,
    token: string | undefined,
    reason?: RequestReason,
    handTo?: string,
  ): void {
    const reservation = this.registry.reservation(key);
    const session = this.registry.session(key);
    const action = decideRequest({
      token,
      ...(reservation
        ? { load: { token: reservation.token, full: reservation.requestersFull(requester) } }
        : {}),
      ...(session
        ? {
            session: {
              token: session.token,
              state: session.state,
              writing: session.writing,
              player: session.player !== undefined,
              full: session.requesters.full(requester),
            },
          }
        : {}),
      attached: this.host.attached,
    });
    this.report(key, requester, token, action);
    switch (action) {
      case 'await-load':
        reservation?.requesters.note(requester, token, handTo, this.context.scheduler.now());
        return;
      case 'reply':
        void this.replyFree(key, requester, token);
        return;
      case 'ignored':
        return;
    }
    if (!session) return;
    session.requesters.note(requester, token, handTo, this.context.scheduler.now());
    const ending = endingFor(reason);
    if (action === 'kick') {
      const messages = this.context.settings.kickMessages;
      if (typeof reason === 'object') this.kick(session, reason.message, 'operator');
      else if (reason === 'support') this.kick(session, messages.support, 'support');
      else this.kick(session, messages.joinedElsewhere, 'joined-elsewhere');
    }
    // Retried or released now; a failure is reported as profile.release-failed.
    else if (action === 'retry-release' || action === 'release')
      session.release(ending).catch(() => undefined);
  }

  /**
   * A session ended: every server that asked for its key gets its reply. The one whose load
   * its release handed the lock to (`released` holds that load's lock) gets the record with
   * it, and takes the lock with no read of the store.
   */
  answer(session: ProfileSession, released?: StoreSnapshot): void {
    // A record whose data alone is over a message is not stringified only to be left out.
    const fits = session.lastWritten.json.length <= MAX_MESSAGE_BYTES;
    for (const [requester, asked] of session.requesters.take()) {
      const handed = fits ? replyRecordFor(released, requester, asked.handTo) : undefined;
      void this.sendReply(session.key, requester, handed);
    }
  }

  /** Ends a player's session with `message`; the host reports the player leaving. */
  kick(session: ProfileSession, message: string, cause: KickCause): void {
    if (!session.player) return;
    session.kicked(cause);
    this.host.kick(session.key, session.player, message, cause);
  }

  /**
   * Tells a requester this server does not hold `key`. A lock of this server under the
   * requester's token that no session holds (a load whose response was lost) is released
   * first, or the requester would find it again and wait it out by age.
   */
  private async replyFree(
    key: string,
    requester: string,
    token: string | undefined,
  ): Promise<void> {
    const { context } = this;
    if (token !== undefined) {
      const heldHere = (held: string) => this.registry.holdsToken(held, key);
      const written = await releaseOrphanedLock(
        context,
        key,
        token,
        heldHere,
        'orphaned-lock release',
      );
      if (!written.ok) {
        context.logger.warn(
          `could not clear an orphaned lock of ${key}: ${describeError(written.error)}`,
        );
      }
    }
    await this.sendReply(key, requester);
  }

  private async sendReply(key: string, requester: string, handed?: HandedRecord): Promise<void> {
    const { handoff } = this.context.link;
    if (!handoff) return;
    this.context.emit({ type: 'handoff.reply.sent', key, requester });
    try {
      await handoff.reply(this.context.name, key, requester, handed);
      this.context.link.replySent();
    } catch (error) {
      // Once until a reply goes out again: a bus outage must not flood the log.
      if (!this.context.link.replyFailed()) return;
      this.context.logger.warn(
        `handoff reply for ${key} to ${requester} failed; more failures are not logged until a reply goes out: ${describeError(error)}`,
      );
    }
  }

  private report(
    key: string,
    requester: string,
    token: string | undefined,
    action: RequestAction,
  ): void {
    this.context.emit({
      type: 'handoff.request.received',
      key,
      requester,
      ...(token === undefined ? {} : { token }),
      action,
    });
  }
}

/**
 * What a reply to `requester` carries of the release's record `released`: the record, its
 * version and its load's token, when its lock is that load's (`handTo`, on `requester`).
 */
function replyRecordFor(
  released: StoreSnapshot | undefined,
  requester: string,
  handTo: string | undefined,
): HandedRecord | undefined {
  if (released === undefined || handTo === undefined) return undefined;
  // A version no reply may carry (a store's own, too long) is not sent to be dropped.
  if (!isHandOverToken(released.version)) return undefined;
  if (!lockedFor(released.record, requester, handTo)) return undefined;
  return { token: handTo, version: released.version, json: recordJson(released.record) };
}

/** Why a session a request ends ends: support, an operator, or its player joined elsewhere. */
function endingFor(reason: RequestReason | undefined): ReleaseReason {
  if (reason === undefined) return 'joined-elsewhere';
  return reason === 'support' ? 'support' : 'operator';
}
