/**
 * When a kicked player's profile has been released, so the kick's WebSocket frames go out after
 * the release write rather than beside it: that write (and the reply that follows it) is what
 * the player's next server is waiting for, and the frames only tell the old connection why it
 * ends. Bounded: a release that stalls still lets the player hear why within `FRAMES_WAIT_MS`.
 */
import type { DataDriver, DataDriverEvent } from '@datadriver/core';

/** What the watch needs of a driver. */
export type WatchedDriver = Pick<DataDriver<object>, 'on' | 'profile'>;

/** Far longer than a release takes; far shorter than a player waits to hear why. */
export const FRAMES_WAIT_MS = 1_000;

/** The events that end a session's release, whichever way it went. */
const RELEASE_ENDS: ReadonlySet<DataDriverEvent['type']> = new Set([
  'profile.released',
  'profile.release-failed',
  'lock.lost',
]);

export class ReleaseWatch {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(private readonly driver: WatchedDriver) {
    driver.on((event) => {
      if (RELEASE_ENDS.has(event.type) && 'key' in event) this.settle(event.key);
    });
  }

  /**
   * Resolves once the profile of `key` held here is released (or its release failed, or the
   * lock was lost), and after the reply to the next server went out; at most `FRAMES_WAIT_MS`
   * later. Undefined when no profile of `key` is held here: nothing to wait for.
   */
  released(key: string): Promise<void> | undefined {
    if (!this.driver.profile(key)) return undefined;
    return new Promise((resolve) => {
      const waiters = this.waiting.get(key) ?? new Set<() => void>();
      this.waiting.set(key, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, FRAMES_WAIT_MS);
      waiters.add(done);
    });
  }

  private settle(key: string): void {
    const waiters = this.waiting.get(key);
    if (!waiters) return;
    // The release's reply to the next server is sent in the same turn, right after this event:
    // the frames wait for the next one.
    setImmediate(() => {
      for (const done of [...waiters]) done();
    });
  }
}
