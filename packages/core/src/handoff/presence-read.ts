/**
 * One read of another server's presence key, as a waiting load uses it: alive, stopped (no
 * key) or unknown (the read failed twice, a presence retry apart), and, when the presence can
 * tell (`Presence.getEntry`), how long the key has left, so the load can read again as it
 * expires.
 */
import { retryOnce } from '../events/signal.js';
import { type Presence, presenceEntry } from '../ports/presence.js';
import type { Scheduler } from '../ports/scheduler.js';

/** One presence read of a server: `alive` as `isAlive` answers, and the ms its key has left. */
export interface PresenceRead {
  readonly alive: boolean | undefined;
  /** When alive and the presence tells (`Presence.getEntry`): ms until the key expires. */
  readonly expiresInMs?: number;
}

/** Reads `jobId`'s key on `presence`, retried once `retryMs` later; never rejects. */
export async function readPresence(
  presence: Presence,
  scheduler: Scheduler,
  retryMs: number,
  jobId: string,
): Promise<PresenceRead> {
  try {
    const entry = await retryOnce(scheduler, retryMs, () => presenceEntry(presence, jobId));
    if (entry === undefined) return { alive: false };
    return entry.expiresInMs === undefined
      ? { alive: true }
      : { alive: true, expiresInMs: entry.expiresInMs };
  } catch {
    return { alive: undefined };
  }
}
