/**
 * A map of short-lived keys: each server beats its own key, and other servers read it to
 * tell a live server from a stopped one (`CKPresence` in the seed).
 *
 * Failures: `set` rejects when the write is not known to have landed; `get` rejects when the
 * read failed, which callers treat as the third answer, unknown (never as "absent").
 * Rejections are `DataDriverError`s with the vendor error as `cause`.
 */
export interface Presence {
  readonly specificationVersion: 'v1';
  /** True when the map lives inside this process only (the in-memory presence). */
  readonly processLocal?: boolean;
  /**
   * Where a reader starts counting a key's TTL, which says how long a stopped server can take
   * to read as stopped. `'set'` (the default): from the writer's last `set`, as Redis's `SET
   * PX` does, so a stopped server reads as stopped at most one TTL after its last beat, before
   * a join that started after the crash has waited a TTL. `'first-read'`: from this reader's
   * own first read of the value it finds, for a presence that must not compare the writer's
   * clock with its own (DynamoPresence, whose store deletes expired keys late); a stopped
   * server then reads as stopped one TTL after the reader first looked, up to one TTL later
   * than with `'set'`. A driver given such a presence waits one presence TTL longer by default
   * (`lockWaitSeconds`), so that a join after a crash waits for the takeover instead of failing.
   */
  readonly expiryCountedFrom?: 'set' | 'first-read';
  /** Writes `value` under `key`, replacing any older value; it expires `ttlSeconds` later. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** The value under `key`, or `undefined` when there is none or it has expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Optional: what `get` reads, with how long the key has left (`expiresInMs`: the ms until
   * `get` would answer none if the key is not set again), when the presence can tell. A load
   * waiting on a holder that stopped beating then reads again as the key expires instead of
   * at its next park, so a crash is proven about one beat after the expiry, not up to a park
   * later. Same failures as `get`. Without it, or without `expiresInMs`, reads keep the park
   * schedule.
   */
  getEntry?(key: string): Promise<PresenceEntry | undefined>;
  /**
   * Optional, for tools (the CLI's `servers`): every key present now, each as `get` would
   * answer it now, in no order; a key may be listed more than once. Writes nothing. A failure
   * of the backend rejects the iteration with a `DataDriverError`.
   */
  scan?(): AsyncIterable<PresenceEntry>;
}

/** One key of a presence map, as `scan` lists it. */
export interface PresenceEntry {
  readonly key: string;
  readonly value: string;
  /**
   * Ms until the key expires. From `scan`: on the backend's own clock, when the backend keeps
   * one (Redis); absent when expiry is judged by the reader, as DynamoDB's presence does from
   * its own sightings (such a reader only reads a key as expired once it has watched it for
   * its TTL). From `getEntry`: until this reader's `get` would answer none, by whichever clock
   * that reader judges expiry with.
   */
  readonly expiresInMs?: number;
}

/** `presence.getEntry(key)`; for a presence without it, what `get` reads, with no expiry. */
export async function presenceEntry(
  presence: Presence,
  key: string,
): Promise<PresenceEntry | undefined> {
  if (presence.getEntry) return presence.getEntry(key);
  const value = await presence.get(key);
  return value === undefined ? undefined : { key, value };
}
