/**
 * When a stopped server's presence expires, on the backend's own clock: a crash takeover is
 * never due before that plus one beat. A test of server processes reads it right after the
 * kill, rather than counting from the kill (a late beat timer puts the kill up to one stretched
 * beat after the last beat, so the expiry can come sooner after the kill than a TTL less a beat).
 */
import type { Presence } from '@datadriver/core';

/**
 * The expiry of `jobId`'s presence key as a `performance.now()` time of this process, from the
 * presence's `scan()` (Redis reports each key's remaining TTL). The time is taken before the
 * scan, so the figure is never later than the backend's own expiry.
 */
export async function presenceExpiry(presence: Presence, jobId: string): Promise<number> {
  if (!presence.scan) throw new Error('this presence cannot scan: it reports no expiry');
  const before = performance.now();
  for await (const entry of presence.scan()) {
    if (entry.key !== jobId) continue;
    if (entry.expiresInMs === undefined) {
      throw new Error(`the presence of ${jobId} has no expiry on the backend's own clock`);
    }
    return before + entry.expiresInMs;
  }
  throw new Error(`no presence of ${jobId}: it never beat, or expired already`);
}
