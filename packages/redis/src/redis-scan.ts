/**
 * The optional scans of the Store and Presence ports on Redis: `SCAN` with a `MATCH` on the
 * names of one family of the key layout (keys.ts) and a `TYPE` (records are hashes, presence
 * keys strings), on every master of a Cluster. Each name found is read back into its key and
 * kept only if the layout names that key so. Read-only; for tools such as the CLI, never for
 * lock decisions. Each call is bounded on a Cluster as every adapter call is (deadline.ts).
 */
import type { PresenceEntry } from '@datadriver/core/ports';
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './client.js';
import { deadlineOf, within } from './deadline.js';
import { toRedisError } from './errors.js';
import { keyOfTag, tagOf } from './keys.js';

const SCAN_COUNT = 500;

/** `text` as a SCAN pattern that matches only itself. */
function literalPattern(text: string): string {
  return text.replace(/[*?[\]\\^]/g, (character) => `\\${character}`);
}

/** The clients that each hold a share of the keys: every master of a Cluster, else the one. */
function shards(client: RedisClient): readonly Redis[] {
  return client.isCluster ? (client as Cluster).nodes('master') : [client as Redis];
}

/** What a scan looks for: the names of one family whose key starts with `keyPrefix`. */
export interface ScanTarget {
  readonly prefix: string;
  readonly keyPrefix: string;
  readonly type: 'hash' | 'string';
  /** The layout's name of a key in this family, to check a name read back. */
  readonly nameOf: (key: string) => string;
}

/** The key of every name of `target` on every shard; a key may come twice. */
export async function* scanKeys(client: RedisClient, target: ScanTarget): AsyncGenerator<string> {
  // The tag of a key starting with keyPrefix starts with keyPrefix's own tag (its escaping is
  // character by character), except that an empty key prefix has no tag to start with.
  const start = `${target.prefix}{${target.keyPrefix === '' ? '' : tagOf(target.keyPrefix)}`;
  // The family: what the layout puts after a tag's `}` ('' for records, ':presence'...).
  const sample = target.nameOf('k');
  const family = sample.slice(sample.indexOf('}', target.prefix.length) + 1);
  const pattern = `${literalPattern(start)}*${literalPattern(`}${family}`)}`;
  const deadlineMs = deadlineOf(client);
  for (const shard of shards(client)) {
    let cursor = '0';
    do {
      let reply: [string, string[]];
      try {
        reply = await within(
          deadlineMs,
          shard.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT, 'TYPE', target.type),
        );
      } catch (error) {
        throw toRedisError(error, 'scan', pattern);
      }
      cursor = reply[0];
      for (const name of reply[1]) {
        const key = keyOfName(name, target);
        if (key !== undefined) yield key;
      }
    } while (cursor !== '0');
  }
}

/** The key whose name in `target`'s family is `name`, or `undefined` for another name. */
function keyOfName(name: string, target: ScanTarget): string | undefined {
  const open = target.prefix.length;
  const close = name.indexOf('}', open);
  if (name[open] !== '{' || close < 0) return undefined;
  const tag = name.slice(open + 1, close);
  const key = keyOfTag(tag);
  return target.nameOf(key) === name && key.startsWith(target.keyPrefix) ? key : undefined;
}

/** The presence entry under `redisKey`, or `undefined` when it expired meanwhile. */
export async function presenceEntryOf(
  client: RedisClient,
  redisKey: string,
  key: string,
  operation: 'get' | 'scan',
): Promise<PresenceEntry | undefined> {
  let value: string | null;
  let ttlMs: number;
  try {
    const deadlineMs = deadlineOf(client);
    [value, ttlMs] = await Promise.all([
      within(deadlineMs, client.get(redisKey)),
      within(deadlineMs, client.pttl(redisKey)),
    ]);
  } catch (error) {
    throw toRedisError(error, operation, redisKey);
  }
  if (value === null) return undefined;
  return ttlMs > 0 ? { key, value, expiresInMs: ttlMs } : { key, value };
}
