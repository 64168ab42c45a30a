import { setTimeout as sleep } from 'node:timers/promises';
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  checkStoreKey,
  consoleLogger,
  DataDriverError,
  describeError,
  ErrorCode,
  type Logger,
  type Scheduler,
  type Store,
  type StoreRecord,
  type StoreSnapshot,
  type StoreTransform,
  type UpdateOptions,
} from '@datadriver/core/ports';
import { backoffMs, CONFLICT_BACKOFF } from './backoff.js';
import { ConditionalWrites, type RecordCall, recordCall } from './conditional-writes.js';
import { DynamoVersions } from './dynamo-versions.js';
import { type FailedCall, translateDynamoError } from './errors.js';
import { ItemCodec, RECORD_ATTRIBUTE, type StoredItem } from './item-codec.js';
import { DYNAMO_MAX_RECORD_BYTES } from './item-size.js';
import { itemOfSnapshot, snapshotOfItem } from './item-snapshot.js';
import { checkCount, checkTableOptions, type TableOptions } from './table-options.js';
import { recordKeysUnder, scanTable } from './table-scan.js';
import { withThrottleRetries } from './throttle-retry.js';
import { nextMark, type VersionMark } from './version-mark.js';
import { checkVersionsOptions, type DynamoVersionsOptions } from './versions-options.js';

/** The table, and how hard to retry; see the README for the client's own settings. */
export interface DynamoStoreOptions extends TableOptions {
  /** Re-runs of the transform after a conflicting write, before `Data.Conflict` (default 20). */
  readonly conflictRetries?: number;
  /**
   * Retries of a throttled call, after a growing random delay, before `Data.Throttled`
   * (default 3). They come on top of the SDK's own `maxAttempts`.
   */
  readonly throttleRetries?: number;
  /**
   * Gets a warning for each throttled retry and each failed trim of old versions, and a debug
   * line for each conflict retry. Warnings go to the console when unset.
   */
  readonly logger?: Logger;
  /**
   * Keep versions of written records (for `restoreAt` and `versions`) in a second table, within
   * this retention: a write that asks for one (`keepVersion`) keeps it in the same transaction.
   * Off by default: `store.versions` is then `undefined` and `keepVersion` is ignored. Create
   * the table with `ensureTable({ ..., versions })`; see the README's "Versions".
   */
  readonly versions?: DynamoVersionsOptions;
  /**
   * The clock versions are stamped with and their age judged by (default `Date.now`): each
   * server's own, as DynamoDB has none a write can read.
   */
  readonly clock?: Pick<Scheduler, 'now'>;
}

/** What the next run of a transform sees, and whether the store confirmed it. */
interface Seen {
  readonly item: StoredItem | undefined;
  /** False for the caller's `expected`: a run that writes nothing on it must read first. */
  readonly confirmed: boolean;
}

/**
 * DataDriver's record store on DynamoDB: one item per key. An update runs the caller's
 * transform on the caller's snapshot, or on a strongly consistent read when it has none, then
 * writes conditioned on the item being as seen (absent, or at the revision seen). A failed
 * condition carries the item stored now (`ALL_OLD`), and the transform runs again on it with
 * no read. The store holds no lock logic: the transform decides everything. With `versions`,
 * a write that keeps a version is a transaction of that conditional put and the version's put.
 */
export class DynamoStore implements Store {
  /** The port contract implemented; core refuses another. */
  readonly specificationVersion = 'v2';
  /** The table this store reads and writes. */
  readonly tableName: string;
  private readonly client: DynamoDBClient;
  private readonly codec: ItemCodec;
  private readonly conflictRetries: number;
  private readonly throttleRetries: number;
  private readonly logger: Logger;
  private readonly clock: Pick<Scheduler, 'now'>;
  private readonly writes: ConditionalWrites;
  /** The kept versions, when the store was made with `versions`. */
  readonly versions: DynamoVersions | undefined;
  /** DynamoDB's item limit less room for the key and the item's other attributes. */
  readonly maxRecordBytes = DYNAMO_MAX_RECORD_BYTES;

  constructor(options: DynamoStoreOptions) {
    const table = checkTableOptions(options);
    this.client = table.client;
    this.tableName = table.tableName;
    this.codec = new ItemCodec(table.keyAttribute);
    this.conflictRetries = checkCount('conflictRetries', options.conflictRetries, 20);
    this.throttleRetries = checkCount('throttleRetries', options.throttleRetries, 3);
    this.logger = options.logger ?? consoleLogger('[DataDriver dynamodb]');
    this.clock = options.clock ?? { now: () => Date.now() };
    this.versions =
      options.versions === undefined
        ? undefined
        : new DynamoVersions(checkVersionsOptions(table.tableName, options.versions), {
            client: this.client,
            keyAttribute: table.keyAttribute,
            clock: this.clock,
            throttleRetries: this.throttleRetries,
            logger: this.logger,
          });
    this.writes = new ConditionalWrites({
      client: this.client,
      tableName: this.tableName,
      codec: this.codec,
      versions: this.versions,
      send: (call, send) => this.send(call, send),
    });
  }

  /** A strongly consistent read of the record under `key`. */
  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    return (await this.read(key))?.record;
  }

  /**
   * Replaces the record under `key` with `transform(current)` by a conditional write, re-running
   * `transform` on the newer item when another writer got there first: at once on the item the
   * failed condition carried back, then after a pause on a fresh read. Given `expected`, the
   * first run is on its record, with no read. Rejects with `Data.Conflict` once
   * `conflictRetries` re-runs all lost; nothing was written then. With `keepVersion` (and
   * `versions` set), the write of a record and of its version are one transaction; a delete
   * keeps none.
   */
  async update(
    key: string,
    transform: StoreTransform,
    options: UpdateOptions = {},
  ): Promise<StoreSnapshot | undefined> {
    checkStoreKey(key);
    const keepVersion = options.keepVersion === true && this.versions !== undefined;
    const { expected } = options;
    let seen: Seen | undefined = expected && { item: itemOfSnapshot(expected), confirmed: false };
    for (let retry = 0; ; ) {
      seen ??= { item: await this.read(key), confirmed: true };
      const { item } = seen;
      const next = transform(item?.record);
      if (next === undefined || (next === null && item === undefined)) {
        if (seen.confirmed) return item && snapshotOfItem(item);
        seen = undefined; // the caller's snapshot: a decision to write nothing needs a read
        continue;
      }
      const version = keepVersion && next !== null ? await this.nextVersion(key, item) : undefined;
      const outcome =
        next === null
          ? await this.writes.delete(key, item)
          : await this.writes.put(key, item, next, version);
      if (outcome.kind === 'written') {
        if (version) await this.trimVersions(key, version);
        return outcome.item && snapshotOfItem(outcome.item);
      }
      if (retry >= this.conflictRetries) throw this.conflict(key, retry + 1, outcome.error);
      retry += 1;
      // The first conflict runs again at once on the item carried back; later ones pause, then
      // read again: a read just before the write leaves other writers the least time to slip in.
      if (retry === 1) {
        // A conflict that does not say what is stored now is read again, at once.
        const on = outcome.current ? 'the item the failed write carried back' : 'a fresh read';
        this.logger.debug(
          `a concurrent write changed ${key} in table ${this.tableName}; re-running the transform on ${on} (retry 1 of ${this.conflictRetries})`,
          { key, tableName: this.tableName, retry: 1, delayMs: 0 },
        );
        seen = outcome.current && { item: outcome.current.item, confirmed: true };
        continue;
      }
      seen = undefined;
      await this.pauseBeforeRetry(key, retry - 1);
    }
  }

  /**
   * The keys of the records under `prefix`: a strongly consistent `Scan` of the whole table
   * (read units for every item, whatever the prefix). Read-only, for tools.
   */
  async *scan(prefix: string): AsyncGenerator<string> {
    const { keyAttribute } = this.codec;
    const pages = scanTable({
      client: this.client,
      call: { operation: `scan of the keys under "${prefix}"`, tableName: this.tableName },
      input: recordKeysUnder(this.tableName, keyAttribute, RECORD_ATTRIBUTE, prefix),
      send: (send) =>
        this.send({ operation: 'scan', key: prefix, tableName: this.tableName }, send),
    });
    for await (const item of pages) {
      const key = item[keyAttribute]?.S;
      if (key !== undefined) yield key;
    }
  }

  private async read(key: string): Promise<StoredItem | undefined> {
    const call = this.call('read', key);
    try {
      const output = await this.send(call, () =>
        this.client.send(
          new GetItemCommand({
            TableName: this.tableName,
            Key: this.codec.key(key),
            ConsistentRead: true,
          }),
        ),
      );
      return this.codec.decode(key, output.Item);
    } catch (error) {
      throw translateDynamoError(error, call);
    }
  }

  /**
   * Where the version of a write after `read` goes: after the newest one the record item
   * remembers, or, for an item without that mark (a new record, or one deleted and written
   * again), after the newest one in the versions table.
   */
  private async nextVersion(key: string, read: StoredItem | undefined): Promise<VersionMark> {
    const newest = read?.newestVersion ?? (await this.versions?.newest(key));
    return nextMark(newest, this.clock.now());
  }

  /**
   * Drops the versions past the retention once a write committed. A failure here leaves them
   * for the next write to drop (reads apply the retention anyway), so it is logged, not thrown:
   * the write itself landed.
   */
  private async trimVersions(key: string, newest: VersionMark): Promise<void> {
    try {
      await this.versions?.trim(key, newest);
    } catch (error) {
      this.logger.warn(
        `could not drop the old versions of ${key} past the retention; the next write retries: ${describeError(error)}`,
        { key, tableName: this.tableName, error },
      );
    }
  }

  private async pauseBeforeRetry(key: string, retry: number): Promise<void> {
    const delayMs = backoffMs(retry, CONFLICT_BACKOFF);
    this.logger.debug(
      `a concurrent write changed ${key} in table ${this.tableName}; re-running the transform (retry ${retry + 1} of ${this.conflictRetries}) in ${delayMs} ms`,
      { key, tableName: this.tableName, retry: retry + 1, delayMs },
    );
    await sleep(delayMs);
  }

  private conflict(key: string, attempts: number, cause: unknown): DataDriverError {
    return new DataDriverError(
      ErrorCode.Conflict,
      `the update of ${key} in table ${this.tableName} lost to concurrent writes ${attempts} times in a row; nothing was written`,
      { cause, details: { key, tableName: this.tableName, attempts } },
    );
  }

  private send<T>(call: FailedCall, send: () => Promise<T>): Promise<T> {
    return withThrottleRetries(call, this.throttleRetries, this.logger, send);
  }

  private call(operation: string, key: string): RecordCall {
    return recordCall(operation, key, this.tableName);
  }
}
