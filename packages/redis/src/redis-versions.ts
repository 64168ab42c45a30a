/**
 * The Store port's optional history on Redis: the versions that `RedisStore` keeps with a
 * write, read back by time or by id. Writing them is the store's compare-and-set script.
 */
import {
  checkVersionQuery,
  DataDriverError,
  ErrorCode,
  type StoreRecord,
  type StoreVersion,
  type StoreVersions,
  type VersionQuery,
} from '@datadriver/core/ports';
import type { RedisClient } from './client.js';
import { within } from './deadline.js';
import { toRedisError } from './errors.js';
import type { VersionKeys } from './keys.js';
import type { RetentionArgs } from './retention.js';
import { runScript } from './scripts.js';
import { recordOf } from './stored-record.js';
import { listVersions, readVersion } from './version-scripts.js';

/** A query's time bounds as inclusive scores (µs, '' for none), or `undefined` for no match. */
type ScoreRange = readonly [high: string, low: string] | undefined;

/**
 * A version stamped in millisecond `t` has a score from `t * 1000` to `t * 1000 + 999`; the
 * port's bounds are inclusive, in ms. The query is checked already (`checkVersionQuery`).
 */
function scoreRange({ before, after }: VersionQuery): ScoreRange {
  if (before === -Infinity || after === Infinity) return undefined;
  const high = before === undefined || before === Infinity ? '' : Math.floor(before) * 1000 + 999;
  const low = after === undefined || after === -Infinity ? '' : Math.ceil(after) * 1000;
  return [String(high), String(low)];
}

function limitArg(limit: number | undefined): string {
  return limit === undefined ? '' : String(limit);
}

/** `[id, score, ...]` from `listVersions` as versions stamped in whole ms. */
function versionsOf(reply: unknown, target: string): StoreVersion[] {
  if (!Array.isArray(reply)) {
    throw new DataDriverError(
      ErrorCode.BackendFailed,
      `redis list of ${target} failed: unexpected script reply ${JSON.stringify(reply)}`,
    );
  }
  const versions: StoreVersion[] = [];
  for (let index = 0; index + 1 < reply.length; index += 2) {
    const micros = Number(reply[index + 1]);
    versions.push({ id: String(reply[index]), time: (micros - (micros % 1000)) / 1000 });
  }
  return versions;
}

/** Kept versions in a sorted set and a hash per record, in the record's Cluster slot. */
export class RedisVersions implements StoreVersions {
  /**
   * @param keysOf the Redis keys of a store key's versions, in its record's slot.
   * @param retention the store's retention, which reads apply as writes do.
   * @param deadlineMs each call's bound on a Cluster client (`deadlineOf`).
   */
  constructor(
    private readonly client: RedisClient,
    private readonly versionKeysOf: (key: string) => VersionKeys,
    private readonly retention: RetentionArgs,
    private readonly deadlineMs?: number,
  ) {}

  /** The Redis keys that hold the versions of store key `key`. */
  keysOf(key: string): VersionKeys {
    return this.versionKeysOf(key);
  }

  /**
   * Versions of `key`, newest first, each stamped with the Redis server's clock (ms) when its
   * write committed. Only versions still within the retention are listed.
   */
  async list(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkVersionQuery(query);
    const range = scoreRange(query);
    const limit = limitArg(query.limit);
    if (range === undefined || limit === '0') return [];
    const { index } = this.keysOf(key);
    try {
      const reply = await runScript(
        this.client,
        listVersions,
        [index],
        [...range, limit, ...this.retention],
        this.deadlineMs,
      );
      return versionsOf(reply, index);
    } catch (error) {
      throw toRedisError(error, 'list', index);
    }
  }

  /** The record as version `id` of `key` wrote it, or `undefined` when it is not retained. */
  async read(key: string, id: string): Promise<StoreRecord | undefined> {
    const { index, records } = this.keysOf(key);
    let json: unknown;
    try {
      json = await runScript(
        this.client,
        readVersion,
        [index, records],
        [id, ...this.retention],
        this.deadlineMs,
      );
    } catch (error) {
      throw toRedisError(error, 'read', records);
    }
    if (typeof json !== 'string') return undefined;
    return recordOf({ version: id, json }, records);
  }

  /** Deletes every version of `key`: both of its keys, in one command. */
  async purge(key: string): Promise<void> {
    const { index, records } = this.keysOf(key);
    try {
      await within(this.deadlineMs, this.client.del(index, records));
    } catch (error) {
      throw toRedisError(error, 'purge', index);
    }
  }
}
