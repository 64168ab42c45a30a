/**
 * Where each port's data lives. Every command touches exactly one key, so the scheme needs no
 * hash tags to run on Redis Cluster: records and presence keys spread over the slots.
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
