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
  /** Writes `value` under `key`, replacing any older value; it expires `ttlSeconds` later. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** The value under `key`, or `undefined` when there is none or it has expired. */
  get(key: string): Promise<string | undefined>;
}
