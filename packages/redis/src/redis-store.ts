/**
 * The Store port on Redis: `update` runs the transform on the caller's snapshot (or on a read
 * when it has none) and writes its result with a compare-and-set on the record's version. A
 * moved version is answered with the current record, on which the transform runs again: a
 * holder's write is one EVALSHA, and a conflict costs no read. With `versions` set, a write
 * that asks for it keeps the written record as a version, in its own script.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkMaxRecordBytes,
  checkStoreKey,
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type Logger,
  nextVersionId,
  recordJson,
  type Store,
  type StoreRecord,
  type StoreSnapshot,
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
import { coalesceTick } from './coalesce.js';
import { deadlineOf, within } from './deadline.js';
import { toRedisError } from './errors.js';
import { checkPrefix, recordKey, versionKeys } from './keys.js';
import { sendPlain } from './plain-command.js';
import { scanKeys } from './redis-scan.js';
import { type CasOutcome, CompareAndSet, casWrite } from './redis-store-cas.js';
import { RedisVersions } from './redis-versions.js';
import { replicaWaitOf } from './replication.js';
import { type RetentionArgs, retentionArgs } from './retention.js';
import {
  recordOf,
  type Seen,
  type Snapshot,
  seenIn,
  snapshotOf,
  snapshotOfSeen,
} from './stored-record.js';

export interface RedisStoreOptions extends RedisAdapterOptions {
  /**
   * How many compare-and-sets one `update` tries before it rejects with `Data.Conflict`
   * (default 20). The first conflict re-runs the transform at once on the record the failed
   * compare-and-set carried back; after the nth conflict (n > 1) it waits a random 0 to 2^n ms
   * (at most 100 ms) before reading again, so many writers of one key take turns instead of
   * colliding again.
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

const DEFAULT_MAX_ATTEMPTS = 20;
const MAX_BACKOFF_MS = 100;

/** Records as JSON in Redis hashes, one per key, written by compare-and-set. */
export class RedisStore implements Store {
  /** The Store port version this adapter implements. */
  readonly specificationVersion = 'v2';
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
  private readonly cas: CompareAndSet;
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
    const replicaWait = replicaWaitOf(options.waitForReplicas, options.replicaWaitMs);
    this.cas = new CompareAndSet(this.client, replicaWait, this.deadlineMs);
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
    if (replicaWait) noteReplicaWait(this.client, this.logger);
  }

  /** The Redis key that holds store key `key`. */
  keyOf(key: string): string {
    return recordKey(this.prefix, key);
  }

  /**
   * Replaces the record under `key` with `transform(current)` by compare-and-set, re-running
   * `transform` on the record a concurrent writer left, up to `maxAttempts` times. Given
   * `expected`, the first run is on its record, with no read. A rejection other than the
   * transform's own error is a `DataDriverError`; the write may have landed. With `keepVersion`
   * (and `versions` set), a committed write of a record also keeps it as a version; a delete
   * keeps none.
   */
  update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined> {
    // The first run on `expected` is a promise chain, not an async function: a holder's write
    // that meets no conflict (nearly every write) is one compare-and-set and one promise. A
    // read, a decision to write nothing and a conflict go on in `attempts`.
    try {
      checkStoreKey(key);
      const redisKey = this.keyOf(key);
      // Read as `options.x` when given, so a hostile `null` still fails as it always did.
      const keepVersion = options !== undefined && options.keepVersion === true;
      const expected = options === undefined ? undefined : options.expected;
      if (expected === undefined) return this.attempts(key, redisKey, transform, keepVersion);
      const next = transform(expected.record);
      if (next === undefined || (next === null && expected.record === undefined)) {
        return this.attempts(key, redisKey, transform, keepVersion);
      }
      const version = nextVersionId();
      // The snapshot is what this run saw: it is only read.
      return this.send(key, redisKey, expected, next, version, keepVersion).then((outcome) => {
        if (outcome.written) return next === null ? undefined : { record: next, version };
        const again = this.conflicted(redisKey, outcome, 1);
        return this.attempts(key, redisKey, transform, keepVersion, again);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * `update`'s runs from attempt `from.attempt` (the first when none): on `from.seen`, or on a
   * read when it has none.
   */
  private async attempts(
    key: string,
    redisKey: string,
    transform: StoreTransform,
    keepVersion: boolean,
    from?: { readonly seen: Seen | undefined; readonly attempt: number },
  ): Promise<StoreSnapshot | undefined> {
    let seen = from?.seen;
    for (let attempt = from?.attempt ?? 1; ; ) {
      seen ??= seenIn(await this.read(redisKey), redisKey);
      const next = transform(seen.record);
      // Every `seen` here is the store's (a read, or a conflict's reply), never the caller's.
      if (next === undefined || (next === null && seen.record === undefined)) {
        return snapshotOfSeen(seen);
      }
      const version = nextVersionId();
      const outcome = await this.send(key, redisKey, seen, next, version, keepVersion);
      // The record the transform returned: nobody changes it, so no copy is needed.
      if (outcome.written) return next === null ? undefined : { record: next, version };
      const again = this.conflicted(redisKey, outcome, attempt);
      attempt = again.attempt;
      seen = again.seen;
      if (seen !== undefined) continue; // the reply carried the record stored now: no read
      // Wait before the next read, never between a read and its write: the snapshot must be
      // fresh when the write goes out. The window doubles so many writers spread out.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** (attempt - 1)));
    }
  }

  /** The compare-and-set of `next` (`null`: a delete) where the version is still `seen`'s. */
  private send(
    key: string,
    redisKey: string,
    seen: Seen,
    next: StoreRecord | null,
    version: string,
    keepVersion: boolean,
  ): Promise<CasOutcome> {
    return this.cas.run(
      casWrite(this.prefix, key, redisKey, {
        seen: seen.version ?? '',
        version,
        json: next === null ? '' : recordJson(next),
        retention: keepVersion ? this.retention : undefined,
      }),
    );
  }

  /**
   * After attempt `attempt` met a concurrent write: the next attempt, on the record the reply
   * carried (`Data.Conflict` once `maxAttempts` have run).
   */
  private conflicted(
    redisKey: string,
    outcome: CasOutcome,
    attempt: number,
  ): { readonly seen: Seen | undefined; readonly attempt: number } {
    if (attempt >= this.maxAttempts) {
      throw new DataDriverError(
        ErrorCode.Conflict,
        `update of ${redisKey} kept meeting concurrent writes; gave up after ${this.maxAttempts} attempts`,
        { details: { key: redisKey, attempts: this.maxAttempts } },
      );
    }
    this.logger.debug(`update of ${redisKey} met a concurrent write; re-running (${attempt})`);
    // Only the second attempt runs on the record the reply carried; later ones read first.
    const current = outcome.written || attempt > 1 ? undefined : seenIn(outcome.current, redisKey);
    return { seen: current, attempt: attempt + 1 };
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
      coalesceTick(this.client);
      fields = (await within(
        this.deadlineMs,
        sendPlain(this.client, 'hgetall', [redisKey]),
      )) as Record<string, string>;
    } catch (error) {
      throw toRedisError(error, 'read', redisKey);
    }
    return snapshotOf(fields, redisKey);
  }
}
