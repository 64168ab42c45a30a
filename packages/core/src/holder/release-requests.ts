/**
 * The holder's side of handoff: what this server does with another server's request to
 * release a key, and the replies it owes when a session ends.
 */
import type { DriverContext } from '../driver/context.js';
import type { HostSlot } from '../driver/host-slot.js';
import type { SessionRegistry } from '../driver/registry.js';
import { describeError } from '../errors.js';
import type { RequestAction } from '../events.js';
import { releasedRecord } from '../rules/index.js';
import { guardedWrite } from '../session/guarded-write.js';
import type { ProfileSession } from '../session/profile-session.js';

export class ReleaseRequests {
  constructor(
    private readonly ctx: DriverContext,
    private readonly registry: SessionRegistry,
    private readonly host: HostSlot,
  ) {}

  /**
   * Replies at once when this server no longer holds `key` or holds it under another token
   * (the player came back and holds a newer lock); otherwise records the requester and acts:
   * retry a failed leave save, kick a live session, or wait for a load in flight.
   */
  receive(key: string, requester: string, token: string | undefined): void {
    const reservation = this.registry.reservation(key);
    // A load in flight is awaited only when the request names its lock (an attempt whose
    // response was lost): a late request naming an older lock is answered at once.
    if (reservation && (token === undefined || token === reservation.token)) {
      if (reservation.requesters.full(requester)) {
        this.report(key, requester, token, 'ignored');
        return;
      }
      reservation.requesters.note(requester, token);
      this.report(key, requester, token, 'await-load');
      return;
    }
    const session = this.registry.session(key);
    if (
      !session ||
      session.state === 'inactive' ||
      (token !== undefined && token !== session.token)
    ) {
      this.report(key, requester, token, 'reply');
      void this.replyFree(key, requester, token);
      return;
    }
    if (session.requesters.full(requester)) {
      this.report(key, requester, token, 'ignored');
      return;
    }
    session.requesters.note(requester, token);
    this.act(session, requester, token);
  }

  /** A session ended: every server that asked for its key gets its reply. */
  answer(session: ProfileSession): void {
    for (const [requester] of session.requesters.take())
      void this.sendReply(session.key, requester);
  }

  /** Ends a player's session with `message`; the host reports the player leaving. */
  kick(session: ProfileSession, message: string): void {
    if (!session.player) return;
    session.kicked();
    this.host.kick(session.key, session.player, message);
  }

  private act(session: ProfileSession, requester: string, token: string | undefined): void {
    const { key } = session;
    if (session.state !== 'active') {
      // Ending, leaving or retained: on its way out. A failed leave save is retried now.
      const retry = session.state === 'retained' && !session.writing;
      this.report(key, requester, token, retry ? 'retry-release' : 'await-release');
      if (retry) session.release().catch(() => undefined); // reported as profile.release-failed
    } else if (session.player && this.host.attached) {
      this.report(key, requester, token, 'kick');
      this.kick(session, this.ctx.settings.kickMessages.joinedElsewhere);
    } else {
      this.report(key, requester, token, 'release');
      session.release().catch(() => undefined); // reported as profile.release-failed
    }
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
    const { ctx } = this;
    if (token !== undefined) {
      const written = await guardedWrite(ctx, {
        key,
        what: 'orphaned-lock release',
        decide: (record) => {
          const lock = record?.meta.lock;
          return lock?.jobId === ctx.identity.jobId &&
            lock.token === token &&
            !this.registry.holds(key, token)
            ? 'release'
            : 'keep';
        },
        next: (record, decision) =>
          decision === 'release' && record ? releasedRecord(record, record.data, token) : undefined,
      });
      if (!written.ok) {
        ctx.logger.warn(
          `could not clear an orphaned lock of ${key}: ${describeError(written.error)}`,
        );
      }
    }
    await this.sendReply(key, requester);
  }

  private async sendReply(key: string, requester: string): Promise<void> {
    const { handoff } = this.ctx.link;
    if (!handoff) return;
    this.ctx.emit({ type: 'handoff.reply.sent', key, requester });
    await handoff.reply(this.ctx.name, key, requester).catch((error) => {
      this.ctx.logger.warn(`handoff reply for ${key} to ${requester} failed: ${String(error)}`);
    });
  }

  private report(
    key: string,
    requester: string,
    token: string | undefined,
    action: RequestAction,
  ): void {
    this.ctx.emit({
      type: 'handoff.request.received',
      key,
      requester,
      ...(token === undefined ? {} : { token }),
      action,
    });
  }
}
