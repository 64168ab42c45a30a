/**
 * Every Redis name this package uses, in one layout:
 *
 *     <prefix>{<tag>}<family>
 *
 * - `prefix` is the adapters' option (default `dd:`); it may hold neither `{` nor `}`
 *   (`checkPrefix` refuses them at construction).
 * - `tag` is the store key, presence key or topic, with `%` written `%25` and `}` written
 *   `%7D`, and the empty string written `%`: it holds no `}` and is never empty.
 * - `family` says what the name holds: nothing for a record, `:versions` and `:versions:records`
 *   for its versions, `:presence` for a server's presence, `:channel` for a topic's channel.
 *
 * Why no two names can meet: the prefix is the text before a name's first `{` (the prefix has
 * none), the tag runs from there to the first `}` (the tag has none), and the family is the
 * rest. So a name gives back its prefix, its tag and its family, and the tag gives back its
 * key (the escaping is reversed by reading `%25` and `%7D` back, and `%` alone is the empty
 * key). Two names of different prefixes, families or keys are therefore different names,
 * whatever characters the prefix, the driver name, the profile key or the jobId hold: a
 * prefix nested in another (`dd:` and `dd:A/`), a driver named like a presence key, a profile
 * key ending in `:versions:records`.
 *
 * Why versions share their record's slot: Redis Cluster hashes the text between a name's first
 * `{` and the first `}` after it when that text is not empty. That is the tag, so the record
 * and both versions keys of one store key hash alike, and the compare-and-set script may touch
 * all three. Records, presence keys and channels of different keys spread over every slot.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';

/** The families: what follows a name's tag. */
const RECORD = '';
const VERSIONS_INDEX = ':versions';
const VERSIONS_RECORDS = ':versions:records';
const PRESENCE = ':presence';
const CHANNEL = ':channel';

/** The text between the braces for `key`: no `}`, never empty, one per key. */
export function tagOf(key: string): string {
  if (key === '') return '%';
  if (!key.includes('%') && !key.includes('}')) return key; // nearly every key: no copy
  return key.replace(/[%}]/g, (char) => (char === '%' ? '%25' : '%7D'));
}

/** The key whose tag is `tag`: `tagOf` read back. */
export function keyOfTag(tag: string): string {
  if (tag === '%') return '';
  return tag.replace(/%25|%7D/g, (code) => (code === '%25' ? '%' : '}'));
}

function nameOf(prefix: string, key: string, family: string): string {
  return `${prefix}{${tagOf(key)}}${family}`;
}

/**
 * `prefix`, checked: a string with neither `{` nor `}`, since the layout puts each key's hash
 * tag right after it. Throws `Data.InvalidConfig` with what to change.
 */
export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string') {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `prefix must be a string (for example "dd:"), got ${typeof prefix}`,
    );
  }
  if (/[{}]/.test(prefix)) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `prefix ${JSON.stringify(prefix)} holds "{" or "}": the adapters put each key's own hash tag right after the prefix, so it must hold neither. Remove the braces (for example "dd:" or "game-7:").`,
      { details: { prefix } },
    );
  }
  return prefix;
}

/** The record of store key `key`: a hash with the fields `version` and `record`. */
export function recordKey(prefix: string, key: string): string {
  return nameOf(prefix, key, RECORD);
}

/** One string key per server: the seed's `CKPresence` map, since Redis 7.0 has no field TTLs. */
export function presenceKey(prefix: string, key: string): string {
  return nameOf(prefix, key, PRESENCE);
}

/** The pub/sub channel of messenger topic `topic` (for example `CKHandoff_<jobId>`). */
export function channelOf(prefix: string, topic: string): string {
  return nameOf(prefix, topic, CHANNEL);
}

/** The two keys that hold a record's versions. */
export interface VersionKeys {
  /** Sorted set: version id scored by its commit time, in microseconds on the Redis clock. */
  readonly index: string;
  /** Hash: version id to the record's JSON as that version wrote it. */
  readonly records: string;
}

/** The versions of store key `key`, in its record's Cluster slot. */
export function versionKeys(prefix: string, key: string): VersionKeys {
  return {
    index: nameOf(prefix, key, VERSIONS_INDEX),
    records: nameOf(prefix, key, VERSIONS_RECORDS),
  };
}
