/**
 * Why a session ends: the reason of its first release (`beforeRelease` runs then, once; a
 * retried release keeps it), and the cause its player was kicked for, which names the release
 * their leave makes.
 */
import type { KickCause, ReleaseReason } from '../events/events.js';

export class SessionEnd {
  #reason: ReleaseReason | undefined;
  #kickedFor: KickCause | undefined;

  /** The first release's reason, once one began. */
  get reason(): ReleaseReason | undefined {
    return this.#reason;
  }

  /** Records `reason` if no release began yet: true then (the one time `beforeRelease` runs). */
  begin(reason: ReleaseReason): boolean {
    if (this.#reason !== undefined) return false;
    this.#reason = reason;
    return true;
  }

  /** Its player was kicked for `cause`. */
  kicked(cause: KickCause): void {
    this.#kickedFor = cause;
  }

  /** Why the player's leave ends the session: the cause they were kicked for, or they left. */
  get leaveReason(): ReleaseReason {
    switch (this.#kickedFor) {
      case 'joined-elsewhere':
      case 'rejoined':
      case 'load-failed':
      case 'support':
      case 'operator':
        return this.#kickedFor;
      default:
        return 'left';
    }
  }
}
