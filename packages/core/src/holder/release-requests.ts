/**
 * The holder's side of handoff: what this server does with another server's request to
 * release a key, and the replies it owes when a session ends.
 */
import type { DriverContext } from '../driver/context.js';
import type { HostSlot } from '../driver/host-slot.js';
import type { SessionRegistry } from '../driver/registry.js';
import type { RequestAction } from '../events.js';
import type { ProfileSession } from '../profile.js';
import { parseRecord, releasedRecord, toStoreRecord } from '../rules/index.js';

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
    session.ending = true;
    this.host.kick(session.key, session.player, message);
  }

  private act(session: ProfileSession, requester: string, token: string | undefined): void {
    const { key } = session;
    if (session.leaving || session.ending) {
      const retry = session.releaseFailed && session.writesInFlight === 0;
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
      await ctx.store
        .update(ctx.keys.store(key), (current) => {
          const record = parseRecord(key, current);
          const lock = record?.meta.lock;
          if (!record || lock?.jobId !== ctx.identity.jobId || lock.token !== token) {
            return undefined;
          }
          if (this.registry.holds(key, token)) return undefined;
          return toStoreRecord(releasedRecord(record, record.data, token));
        })
        .catch((error) =>
          ctx.logger.warn(`could not clear an orphaned lock of ${key}: ${String(error)}`),
        );
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
