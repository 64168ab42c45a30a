/**
 * The Store port on Redis: `update` reads the record, runs the transform, and writes its result
 * with a compare-and-set on the record's version, re-running the transform on a conflict. With
 * `versions` set, the same script keeps the written record as a version when asked.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkMaxRecordBytes,
  checkStoreKey,
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type Logger,
  type Store,
  type StoreRecord,
  type StoreTransform,
  type UpdateOptions,
  type VersionRetention,
} from '@datadriver/core/ports';
import {
  DEFAULT_PREFIX,
  noteReplicaWait,
  type RedisAdapterOptions,
  type RedisClient,
  warnOnSlowFailure,
} from './client.js';
import { deadlineOf, within } from './deadline.js';
import { toRedisError } from './errors.js';
import { checkPrefix, recordKey, versionKeys } from './keys.js';
import { scanKeys } from './redis-scan.js';
import { RedisVersions } from './redis-versions.js';
import {
  type ReplicaWait,
  replicaWaitOf,
  runScriptReplicated,
  underReplicated,
} from './replication.js';
import { type RetentionArgs, retentionArgs } from './retention.js';
import {
  CONFLICT,
  compareAndSet,
  FOREIGN,
  FOREIGN_VERSIONS,
  runScript,
  WRITTEN,
} from './scripts.js';
import { foreign, recordOf, type Snapshot, snapshotOf } from './stored-record.js';

export interface RedisStoreOptions extends RedisAdapterOptions {
  /**
   * How many compare-and-sets one `update` tries before it rejects with `Data.Conflict`
   * (default 20). After the nth conflict it waits a random 0 to 2^n ms (at most 100 ms)
   * before reading again, so many writers of one key take turns instead of colliding again.
   */
  readonly maxAttempts?: number;
  /**
   * Keep versions of written records (for `restoreAt` and `versions`) within this retention: a
   * write that asks for one (`keepVersion`) keeps it atomically, in its compare-and-set. Each
   * version is stamped with the Redis server's clock. Off by default: `store.versions` is then
   * `undefined` and `keepVersion` is ignored.
   */
  readonly versions?: VersionRetention;
  /**
   * The largest record sent, in bytes of JSON (default 512 KiB); core refuses a larger one with
   * `Data.TooLarge` before it is sent. Keep it below the server's `proto-max-bulk-len`: Redis
   * drops the connection on a larger argument, failing every other command on that client.
   */
  readonly maxRecordBytes?: number;
  /**
   * Acknowledge a write only once this many replicas of its master have it too (`WAIT`, in the
   * same pipeline as the write): Redis replicates asynchronously, so without it a master that
   * dies right after a save can take that save with it. Each write then waits for a replica's
   * round trip (see the README's Scaling out). A write that fewer replicas acknowledge within
   * `replicaWaitMs` rejects with `Data.Unavailable` (it may or may not survive a failover) and
   * core saves again. Default 0: no wait.
   */
  readonly waitForReplicas?: number;
  /**
   * How long a write waits for `waitForReplicas` (ms, default 1000). Keep it below the client's
   * `commandTimeout`.
   */
  readonly replicaWaitMs?: number;
}

/**
 * Half of the smallest `proto-max-bulk-len` a Redis server accepts (1 MB), so a record never
 * makes a server drop the shared connection, and a big write never holds it up for long.
 */
export const REDIS_MAX_RECORD_BYTES = 512 * 1024;

/** The keys and arguments of one compare-and-set. */
interface Write {
  /** The record's key first, then its versions keys when the write keeps a version. */
  readonly keys: readonly [record: string, ...versions: string[]];
  readonly args: readonly string[];
}

const DEFAULT_MAX_ATTEMPTS = 20;
const MAX_BACKOFF_MS = 100;

/** Records as JSON in Redis hashes, one per key, written by compare-and-set. */
export class RedisStore implements Store {
  /** The Store port version this adapter implements. */
  readonly specificationVersion = 'v1';
  /** Prepended to every store key. */
  readonly prefix: string;
  /** The kept versions, when the store was made with `versions`. */
  readonly versions: RedisVersions | undefined;
  /** The largest record core sends to this store, in bytes of JSON. */
  readonly maxRecordBytes: number;
  private readonly client: RedisClient;
  /** Each call's bound on a Cluster client (`deadlineOf`). */
  private readonly deadlineMs: number | undefined;
  private readonly retention: RetentionArgs | undefined;
  private readonly maxAttempts: number;
  private readonly replicaWait: ReplicaWait | undefined;
  private readonly logger: Logger;

  constructor(options: RedisStoreOptions) {
    this.client = options.client;
    this.deadlineMs = deadlineOf(this.client);
    this.prefix = checkPrefix(options.prefix ?? DEFAULT_PREFIX);
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.maxRecordBytes = checkMaxRecordBytes(options.maxRecordBytes ?? REDIS_MAX_RECORD_BYTES);
    this.logger = options.logger ?? consoleLogger('[DataDriver redis]');
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `maxAttempts must be a positive integer, got ${String(options.maxAttempts)}`,
      );
    }
    this.replicaWait = replicaWaitOf(options.waitForReplicas, options.replicaWaitMs);
    this.retention = options.versions === undefined ? undefined : retentionArgs(options.versions);
    this.versions =
      this.retention === undefined
        ? undefined
        : new RedisVersions(
            this.client,
            (key) => versionKeys(this.prefix, key),
            this.retention,
            this.deadlineMs,
          );
    warnOnSlowFailure(this.client, this.logger);
    if (this.replicaWait) noteReplicaWait(this.client, this.logger);
  }

  /** The Redis key that holds store key `key`. */
  keyOf(key: string): string {
    return recordKey(this.prefix, key);
  }

  /**
   * Replaces the record under `key` with `transform(current)` by compare-and-set, re-running
   * `transform` on the record a concurrent writer left, up to `maxAttempts` times. A rejection
   * other than the transform's own error is a `DataDriverError`; the write may have landed.
   * With `keepVersion` (and `versions` set), a committed write of a record also keeps it as a
   * version; a delete keeps none.
   */
  async update(
    key: string,
    transform: StoreTransform,
    options: UpdateOptions = {},
  ): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    const redisKey = this.keyOf(key);
    const keepVersion = options.keepVersion === true;
    for (let attempt = 1; ; attempt += 1) {
      const snapshot = await this.read(redisKey);
      const current = recordOf(snapshot, redisKey);
      const next = transform(current);
      if (next === undefined || (next === null && snapshot === undefined)) return current;
      const json = next === null ? '' : JSON.stringify(next);
      if (await this.compareAndSet(this.write(key, snapshot, json, keepVersion))) {
        // A copy of what was stored, as a read would return it.
        return next === null ? undefined : (JSON.parse(json) as StoreRecord);
      }
      if (attempt >= this.maxAttempts) throw this.conflict(redisKey);
      this.logger.debug(`update of ${redisKey} met a concurrent write; re-running (${attempt})`);
      // Wait before the next read, never between a read and its write: the snapshot must be
      // fresh when the write goes out. The window doubles so many writers spread out.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
    }
  }

  /** The record under `key`, read from the primary that owns it. */
  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    const redisKey = this.keyOf(key);
    return recordOf(await this.read(redisKey), redisKey);
  }

  /**
   * The store keys under `prefix` (SCAN of the hashes under it, on every master of a Cluster);
   * a key may come twice. Read-only, for tools.
   */
  async *scan(prefix: string): AsyncGenerator<string> {
    yield* scanKeys(this.client, {
      prefix: this.prefix,
      keyPrefix: prefix,
      type: 'hash',
      nameOf: (key) => this.keyOf(key),
    });
  }

  private async read(redisKey: string): Promise<Snapshot | undefined> {
    let fields: Record<string, string>;
    try {
      fields = await within(this.deadlineMs, this.client.hgetall(redisKey));
    } catch (error) {
      throw toRedisError(error, 'read', redisKey);
    }
    return snapshotOf(fields, redisKey);
  }

  /**
   * The compare-and-set that writes `json` (or deletes, for '') over `snapshot`: on the record
   * alone, or with its versions keys and the retention when it keeps a version.
   */
  private write(
    key: string,
    snapshot: Snapshot | undefined,
    json: string,
    keepVersion: boolean,
  ): Write {
    // A fresh random version per attempt: see the script for why it is never a counter.
    const redisKey = this.keyOf(key);
    const args = [snapshot?.version ?? '', randomBytes(12).toString('base64url'), json];
    if (!keepVersion || this.retention === undefined || json === '') {
      return { keys: [redisKey], args };
    }
    const { index, records } = versionKeys(this.prefix, key);
    return { keys: [redisKey, index, records], args: [...args, ...this.retention] };
  }

  /** Runs `write`; true if it landed, false if the version had moved. */
  private async compareAndSet({ keys, args }: Write): Promise<boolean> {
    const [redisKey, index] = keys;
    let reply: unknown;
    let replicas: number | undefined;
    try {
      ({ reply, replicas } = await this.send(keys, args));
    } catch (error) {
      throw toRedisError(error, 'update', redisKey);
    }
    const status = Array.isArray(reply) ? reply[0] : undefined;
    const wait = this.replicaWait;
    if (status === WRITTEN && wait && (replicas ?? 0) < wait.replicas) {
      throw underReplicated(redisKey, wait, replicas ?? 0);
    }
    if (status === WRITTEN) return true;
    if (status === CONFLICT) return false;
    if (status === FOREIGN) throw foreign(redisKey, 'a hash without a version');
    if (status === FOREIGN_VERSIONS) {
      throw foreign(index ?? redisKey, `not where the versions of ${redisKey} can be kept`);
    }
    throw new DataDriverError(
      ErrorCode.BackendFailed,
      `redis update of ${redisKey} failed: unexpected script reply ${JSON.stringify(reply)}`,
      { details: { operation: 'update', target: redisKey } },
    );
  }

  /** The compare-and-set script, with its WAIT behind it when the store waits for replicas. */
  private async send(
    keys: readonly string[],
    args: readonly string[],
  ): Promise<{ reply: unknown; replicas?: number }> {
    const { client, replicaWait, deadlineMs } = this;
    if (replicaWait) {
      return runScriptReplicated(client, compareAndSet, keys, args, replicaWait, deadlineMs);
    }
    return { reply: await runScript(client, compareAndSet, keys, args, deadlineMs) };
  }

  private conflict(redisKey: string): DataDriverError {
    return new DataDriverError(
      ErrorCode.Conflict,
      `update of ${redisKey} kept meeting concurrent writes; gave up after ${this.maxAttempts} attempts`,
      { details: { key: redisKey, attempts: this.maxAttempts } },
    );
  }
}
