/**
 * The Presence port on Redis: one string key per server under `<prefix>CKPresence:`, written
 * with `SET key value PX ttl` and read with `GET`. Redis expires it by its own clock, so every
 * reader agrees on when a server stopped beating, whatever the servers' clock skew.
 */
import {
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type Presence,
  type PresenceEntry,
} from '@datadriver/core/ports';
import {
  DEFAULT_PREFIX,
  noteTimeBound,
  type RedisAdapterOptions,
  type RedisClient,
  warnOnSlowFailure,
} from './client.js';
import { deadlineOf, within } from './deadline.js';
import { toRedisError } from './errors.js';
import { checkPrefix, presenceKey } from './keys.js';
import { presenceEntryOf, scanKeys } from './redis-scan.js';

export type RedisPresenceOptions = RedisAdapterOptions;

/** Expiring presence keys in Redis. */
export class RedisPresence implements Presence {
  /** The Presence port version this adapter implements. */
  readonly specificationVersion = 'v1';
  /** Prepended to `CKPresence:` and the key. */
  readonly prefix: string;
  private readonly client: RedisClient;
  /** Each call's bound on a Cluster client (`deadlineOf`). */
  private readonly deadlineMs: number | undefined;

  constructor(options: RedisPresenceOptions) {
    this.client = options.client;
    this.deadlineMs = deadlineOf(this.client);
    this.prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
    const logger = options.logger ?? consoleLogger('[DataDriver redis]');
    warnOnSlowFailure(this.client, logger);
    noteTimeBound(this.client, logger);
  }

  /** The Redis key that holds presence key `key`. */
  keyOf(key: string): string {
    return presenceKey(this.prefix, key);
  }

  /** Writes `value` under `key` for `ttlSeconds` (to the millisecond), replacing any older one. */
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const ttlMs = Math.ceil(ttlSeconds * 1000);
    if (!Number.isFinite(ttlMs) || ttlMs < 1) {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        `a presence TTL must be a positive number of seconds, got ${String(ttlSeconds)}`,
      );
    }
    const redisKey = this.keyOf(key);
    try {
      await within(this.deadlineMs, this.client.set(redisKey, value, 'PX', ttlMs));
    } catch (error) {
      throw toRedisError(error, 'set', redisKey);
    }
  }

  /**
   * Every live presence key, with its value and the ms until Redis expires it (SCAN, on every
   * master of a Cluster); a key may come twice. Read-only, for tools.
   */
  async *scan(): AsyncGenerator<PresenceEntry> {
    const target = {
      prefix: this.prefix,
      keyPrefix: '',
      type: 'string',
      nameOf: (key: string) => this.keyOf(key),
    } as const;
    for await (const key of scanKeys(this.client, target)) {
      const entry = await presenceEntryOf(this.client, this.keyOf(key), key, 'scan');
      if (entry) yield entry;
    }
  }

  /**
   * `get`, with the ms until Redis expires the key (`PTTL`, sent with the `GET` in one round
   * trip): a joiner waiting on a stopped server reads again as its key expires.
   */
  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    return presenceEntryOf(this.client, this.keyOf(key), key, 'get');
  }

  /**
   * The live value under `key`, or `undefined` when a successful read found none. A failed
   * read rejects: the caller's "unknown", never "absent".
   */
  async get(key: string): Promise<string | undefined> {
    const redisKey = this.keyOf(key);
    try {
      return (await within(this.deadlineMs, this.client.get(redisKey))) ?? undefined;
    } catch (error) {
      throw toRedisError(error, 'get', redisKey);
    }
  }
}
