/**
 * The holder's side of handoff: what this server does with another server's request to
 * release a key, and the replies it owes when a session ends.
 */
import type { DriverState } from './driver-state.js';
import type { RequestAction } from './events.js';
import type { HostPlayer } from './ports/host.js';
import type { ProfileSession } from './profile.js';
import { parseRecord, releasedRecord, toStoreRecord } from './rules/index.js';

/**
 * Distinct servers recorded as waiting for one key. A key is wanted by a few servers at once;
 * more are a flood of spoofed requesters, which must not grow memory: they get no reply, and
 * a real one's repeated request (every 4 s) is answered once the session has ended.
 */
export const MAX_REQUESTERS_PER_KEY = 16;

export class ReleaseRequests {
  constructor(private readonly state: DriverState) {}

  /**
   * Replies at once when this server no longer holds `key` or holds it under another token
   * (the player came back and holds a newer lock); otherwise records the requester and acts:
   * retry a failed leave save, kick a live session, or wait for a load in flight.
   */
  receive(key: string, requester: string, token: string | undefined): void {
    const reservation = this.state.loads.get(key);
    // A load in flight is awaited only when the request names its lock (an attempt whose
    // response was lost): a late request naming an older lock is answered at once.
    if (reservation && (token === undefined || token === reservation.token)) {
      if (full(reservation.requesters, requester)) {
        this.report(key, requester, token, 'ignored');
        return;
      }
      reservation.requesters.set(requester, token);
      this.report(key, requester, token, 'await-load');
      return;
    }
    const session = this.state.sessions.get(key);
    if (
      !session ||
      session.state === 'inactive' ||
      (token !== undefined && token !== session.token)
    ) {
      this.report(key, requester, token, 'reply');
      void this.replyFree(key, requester, token);
      return;
    }
    if (full(session.requesters, requester)) {
      this.report(key, requester, token, 'ignored');
      return;
    }
    session.requesters.add(requester);
    this.act(session, requester, token);
  }

  /** A session ended: every server that asked for its key gets its reply. */
  answer(session: ProfileSession): void {
    for (const requester of session.requesters) void this.sendReply(session.key, requester);
    session.requesters.clear();
  }

  /** Ends a player's session with `message`; the host reports the player leaving. */
  kick(session: ProfileSession, message: string): void {
    if (!session.player) return;
    session.ending = true;
    this.kickPlayer(session.key, session.player, message);
  }

  kickPlayer(key: string, player: HostPlayer, message: string): void {
    this.state.emit({ type: 'profile.kicked', key, player: player.id, message });
    this.state.host?.kick(player, message);
  }

  private act(session: ProfileSession, requester: string, token: string | undefined): void {
    const { key } = session;
    if (session.leaving || session.ending) {
      const retry = session.releaseFailed && session.writesInFlight === 0;
      this.report(key, requester, token, retry ? 'retry-release' : 'await-release');
      if (retry) session.release().catch(() => undefined); // reported as profile.release-failed
    } else if (session.player && this.state.host) {
      this.report(key, requester, token, 'kick');
      this.kick(session, this.state.settings.kickMessages.joinedElsewhere);
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
    const { state } = this;
    if (token !== undefined) {
      await state.store
        .update(state.storeKey(key), (current) => {
          const record = parseRecord(key, current);
          const lock = record?.meta.lock;
          if (!record || lock?.jobId !== state.jobId || lock.token !== token) return undefined;
          if (state.sessions.get(key)?.token === token) return undefined;
          return toStoreRecord(releasedRecord(record, record.data, token));
        })
        .catch((error) =>
          state.logger.warn(`could not clear an orphaned lock of ${key}: ${String(error)}`),
        );
    }
    await this.sendReply(key, requester);
  }

  private async sendReply(key: string, requester: string): Promise<void> {
    const { handoff } = this.state;
    if (!handoff) return;
    this.state.emit({ type: 'handoff.reply.sent', key, requester });
    await handoff.reply(this.state.name, key, requester).catch((error) => {
      this.state.logger.warn(`handoff reply for ${key} to ${requester} failed: ${String(error)}`);
    });
  }

  private report(
    key: string,
    requester: string,
    token: string | undefined,
    action: RequestAction,
  ): void {
    this.state.emit({
      type: 'handoff.request.received',
      key,
      requester,
      ...(token === undefined ? {} : { token }),
      action,
    });
  }
}

function full(
  requesters: { has(key: string): boolean; readonly size: number },
  requester: string,
): boolean {
  return !requesters.has(requester) && requesters.size >= MAX_REQUESTERS_PER_KEY;
}
