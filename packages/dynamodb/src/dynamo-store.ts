import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
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
  type StoreTransform,
  type UpdateOptions,
} from '@datadriver/core/ports';
import { backoffMs, CONFLICT_BACKOFF } from './backoff.js';
import { DynamoVersions } from './dynamo-versions.js';
import { classifyDynamoError, type FailedCall, translateDynamoError } from './errors.js';
import {
  type Item,
  ItemCodec,
  RECORD_ATTRIBUTE,
  REVISION_ATTRIBUTE,
  type StoredItem,
} from './item-codec.js';
import { DYNAMO_MAX_RECORD_BYTES } from './item-size.js';
import { checkCount, checkTableOptions, type TableOptions } from './table-options.js';
import { recordKeysUnder, scanTable } from './table-scan.js';
import { withThrottleRetries } from './throttle-retry.js';
import { nextMark, type VersionMark } from './version-mark.js';
import { checkVersionsOptions, type DynamoVersionsOptions } from './versions-options.js';
import { unchangedSince } from './write-condition.js';

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

/** A call on one record. */
type RecordCall = FailedCall & { readonly key: string };

/** What one conditional write did. */
type WriteOutcome =
  | { readonly kind: 'written'; readonly record: StoreRecord | undefined }
  | { readonly kind: 'conflict'; readonly error: unknown };

/**
 * DataDriver's record store on DynamoDB: one item per key. An update is a strongly consistent
 * read, the caller's transform, then a write conditioned on the item being unchanged since the
 * read (absent, or at the revision read); a failed condition reads again and re-runs the
 * transform. The store holds no lock logic: the transform decides everything. With `versions`,
 * a write that keeps a version is a transaction of that conditional put and the version's put.
 */
export class DynamoStore implements Store {
  /** The port contract implemented; core refuses another. */
  readonly specificationVersion = 'v1';
  /** The table this store reads and writes. */
  readonly tableName: string;
  private readonly client: DynamoDBClient;
  private readonly codec: ItemCodec;
  private readonly conflictRetries: number;
  private readonly throttleRetries: number;
  private readonly logger: Logger;
  private readonly clock: Pick<Scheduler, 'now'>;
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
  }

  /** A strongly consistent read of the record under `key`. */
  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    return (await this.read(key))?.record;
  }

  /**
   * Replaces the record under `key` with `transform(current)` by a conditional write, re-running
   * `transform` on the newer item when another writer got there first. Rejects with
   * `Data.Conflict` once `conflictRetries` re-runs all lost; nothing was written then.
   * With `keepVersion` (and `versions` set), the write of a record and of its version are one
   * transaction; a delete keeps none.
   */
  async update(
    key: string,
    transform: StoreTransform,
    options: UpdateOptions = {},
  ): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    const keepVersion = options.keepVersion === true && this.versions !== undefined;
    for (let retry = 0; ; retry++) {
      const current = await this.read(key);
      const next = transform(current?.record);
      if (next === undefined) return current?.record;
      if (next === null && current === undefined) return undefined;
      const version =
        keepVersion && next !== null ? await this.nextVersion(key, current) : undefined;
      const outcome =
        next === null
          ? await this.delete(key, current)
          : await this.put(key, current, next, version);
      if (outcome.kind === 'written') {
        if (version) await this.trimVersions(key, version);
        return outcome.record;
      }
      if (retry >= this.conflictRetries) throw this.conflict(key, retry + 1, outcome.error);
      // Read again after the pause, not before it: a read just before the write leaves other
      // writers the least time to slip in between.
      await this.pauseBeforeRetry(key, retry);
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

  private async put(
    key: string,
    read: StoredItem | undefined,
    next: StoreRecord,
    version: VersionMark | undefined,
  ): Promise<WriteOutcome> {
    const revision = randomUUID();
    // Encoding checks the size: an oversized record fails here, before anything is sent.
    // A write that keeps no version carries the mark of the newest one forward.
    const { item, json } = this.codec.encode(key, next, revision, version ?? read?.newestVersion);
    const written = { kind: 'written', record: JSON.parse(json) as StoreRecord } as const;
    // The version's item is checked for size too, before anything is sent.
    const versionPut = version && this.versions?.put(key, json, version);
    const call = this.call(
      versionPut ? `write (with its version in table ${versionPut.TableName})` : 'write',
      key,
    );
    const put = {
      TableName: this.tableName,
      Item: item,
      ...unchangedSince(this.codec.keyAttribute, read),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    } as const;
    try {
      const send = versionPut
        ? () =>
            this.client.send(
              new TransactWriteItemsCommand({
                TransactItems: [{ Put: put }, { Put: versionPut }],
                // The revision as the idempotency token: a transaction the SDK resends after
                // a lost response is not applied twice.
                ClientRequestToken: revision,
              }),
            )
        : () => this.client.send(new PutItemCommand(put));
      await this.send<unknown>(call, send);
      return written;
    } catch (error) {
      const conflict = this.conflictOutcome(error, call);
      // The SDK resent a write whose first response was lost, and it was ours that landed.
      // (Should another write have landed after ours, this reads as a conflict and the
      // transform runs again on that newer record: the port allows a rejected-looking write
      // to have committed.)
      if (conflict.seen?.[REVISION_ATTRIBUTE]?.S === revision) return written;
      return conflict.outcome;
    }
  }

  private async delete(key: string, read: StoredItem | undefined): Promise<WriteOutcome> {
    const call = this.call('delete', key);
    try {
      await this.send(call, () =>
        this.client.send(
          new DeleteItemCommand({
            TableName: this.tableName,
            Key: this.codec.key(key),
            ...unchangedSince(this.codec.keyAttribute, read),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { kind: 'written', record: undefined };
    } catch (error) {
      return this.conflictOutcome(error, call).outcome;
    }
  }

  /**
   * A failed condition is a conflict, reported with the item that beat us (`ALL_OLD`, none
   * when it is gone); any other failure is rethrown as a DataDriverError.
   */
  private conflictOutcome(
    error: unknown,
    call: RecordCall,
  ): { outcome: WriteOutcome; seen?: Item } {
    if (classifyDynamoError(error) !== 'conflict') throw translateDynamoError(error, call);
    const seen = recordItemSeen(error);
    return { outcome: { kind: 'conflict', error }, ...(seen ? { seen } : {}) };
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
    return { operation, key, tableName: this.tableName };
  }
}

/**
 * The record item that failed the write's condition (`ALL_OLD`): the error's own for a
 * PutItem or DeleteItem, the first action's for a transaction.
 */
function recordItemSeen(error: unknown): Item | undefined {
  const failure = error as {
    readonly name?: unknown;
    readonly Item?: Item;
    readonly CancellationReasons?: readonly { readonly Item?: Item }[];
  };
  if (failure.name === 'ConditionalCheckFailedException') return failure.Item;
  if (failure.name === 'TransactionCanceledException')
    return failure.CancellationReasons?.[0]?.Item;
  return undefined;
}
