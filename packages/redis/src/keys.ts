/**
 * Where each port's data lives. Records and presence keys carry no hash tags, so they spread
 * over a Redis Cluster's slots; a record's versions carry a tag that puts them in the record's
 * slot, because the script that writes the record also keeps its version.
 */

/** The record of store key `key`: a hash with the fields `version` and `record`. */
export function recordKey(prefix: string, key: string): string {
  return `${prefix}${key}`;
}

/** One string key per server: the seed's `CKPresence` map, since Redis 7.0 has no field TTLs. */
export function presenceKey(prefix: string, key: string): string {
  return `${prefix}CKPresence:${key}`;
}

/** The pub/sub channel of messenger topic `topic` (for example `CKHandoff_<jobId>`). */
export function channelOf(prefix: string, topic: string): string {
  return `${prefix}${topic}`;
}

/** The two keys that hold a record's versions. */
export interface VersionKeys {
  /** Sorted set: version id scored by its commit time, in microseconds on the Redis clock. */
  readonly index: string;
  /** Hash: version id to the record's JSON as that version wrote it. */
  readonly records: string;
}

/**
 * The versions of the record under `recordKey`, named so that Redis Cluster hashes them as it
 * hashes the record key: the record key in braces (`{dd:PlayerData/user-42}:versions`), or,
 * when the record key has a hash tag of its own, the record key itself, whose tag they keep.
 * Record keys stay as they were. The one key this cannot place is a record key holding a `}`
 * but no hash tag: Redis would end the braces' tag at that `}`.
 */
export function versionKeys(recordKey: string): VersionKeys {
  const base = hashTagOf(recordKey) === undefined ? `{${recordKey}}` : recordKey;
  return { index: `${base}:versions`, records: `${base}:versions:records` };
}

/**
 * The hash tag Redis Cluster hashes `key` by, or `undefined` when it hashes the whole key: the
 * text between the first `{` and the first `}` after it, when that text is not empty.
 */
function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}
