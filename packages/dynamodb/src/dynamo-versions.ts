/**
 * The Store port's optional history on DynamoDB: the versions that DynamoStore writes in the
 * same transaction as the record, one item each in the versions table, read back by time or by
 * id. Retention is enforced on every read (count by sequence number, age by the reader's clock)
 * and storage is trimmed after each versioned write, with DynamoDB's TTL as a backstop for keys
 * never written again.
 */
import {
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  type Put,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import {
  DataDriverError,
  ErrorCode,
  type Logger,
  type Scheduler,
  type StoreRecord,
  type StoreVersion,
  type StoreVersions,
  type VersionQuery,
} from '@datadriver/core/ports';
import { translateDynamoError } from './errors.js';
import { checkKey, type Item, RECORD_ATTRIBUTE, recordOf } from './item-codec.js';
import { withThrottleRetries } from './throttle-retry.js';
import { VERSION_SEQ_ATTRIBUTE, VERSION_TIME_ATTRIBUTE, VersionCodec } from './version-codec.js';
import type { VersionMark } from './version-mark.js';
import { checkLimit, keyCondition, type TimeBounds, timeBounds } from './version-query.js';
import type { VersionsSettings } from './versions-options.js';

/** Projects a version item on its time and sequence number, for queries that need no record. */
const MARK_ONLY = {
  ProjectionExpression: '#time, #seq',
  names: { '#time': VERSION_TIME_ATTRIBUTE, '#seq': VERSION_SEQ_ATTRIBUTE },
} as const;

/** Deletes sent at once by purge and trim. */
const DELETE_BATCH = 25;

export interface DynamoVersionsContext {
  readonly client: DynamoDBClient;
  readonly keyAttribute: string;
  /** The clock that judges age on reads and trims (the store's). */
  readonly clock: Pick<Scheduler, 'now'>;
  readonly throttleRetries: number;
  readonly logger: Logger;
}

export class DynamoVersions implements StoreVersions {
  /** The table the versions live in. */
  readonly tableName: string;
  private readonly codec: VersionCodec;

  constructor(
    private readonly settings: VersionsSettings,
    private readonly context: DynamoVersionsContext,
  ) {
    this.tableName = settings.tableName;
    this.codec = new VersionCodec(context.keyAttribute);
  }

  /** Versions of `key` within the retention, newest first. */
  async list(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkKey(key);
    const bounds = timeBounds(query, this.oldestRetained());
    const limit = checkLimit(query.limit);
    if (bounds === undefined || limit === 0) return [];
    const seqFloor = await this.seqFloor(key);
    if (seqFloor === null) return [];
    const versions: StoreVersion[] = [];
    const input = this.listInput(key, bounds, seqFloor);
    for await (const items of this.pages(key, 'versions list', input, limit)) {
      for (const item of items) {
        const { time } = this.codec.mark(item);
        versions.push({ id: String(time), time });
      }
      if (limit !== undefined && versions.length >= limit) break;
    }
    return limit === undefined ? versions : versions.slice(0, limit);
  }

  /** The record as version `id` of `key` wrote it, or `undefined` when it is not retained. */
  async read(key: string, id: string): Promise<StoreRecord | undefined> {
    checkKey(key);
    // Ids are times in ms, written out as `String(time)`: anything else names no version.
    const time = Number(id);
    if (!Number.isSafeInteger(time) || String(time) !== id) return undefined;
    const call = { operation: 'version read', key, tableName: this.tableName };
    const item = await this.send(call, async () => {
      const command = new GetItemCommand({
        TableName: this.tableName,
        Key: this.codec.key(key, time),
        ConsistentRead: true,
      });
      return (await this.context.client.send(command)).Item;
    });
    if (item === undefined || !(await this.retained(key, this.codec.mark(item)))) return undefined;
    const record = recordOf(this.codec.json(item));
    if (record === undefined) {
      throw new DataDriverError(
        ErrorCode.InvalidRecord,
        `version ${id} of ${key} in table ${this.tableName} has no JSON object in its "${RECORD_ATTRIBUTE}" string attribute`,
        { details: { key, id, tableName: this.tableName } },
      );
    }
    return record;
  }

  /**
   * Deletes every version of `key`, querying again until none is left, so that a version
   * written while the first pass ran is not left behind.
   */
  async purge(key: string): Promise<void> {
    checkKey(key);
    for (;;) {
      let found = 0;
      for await (const items of this.pages(key, 'versions purge', this.markInput(key))) {
        found += items.length;
        await this.deleteAll(key, items);
      }
      if (found === 0) return;
    }
  }

  /** The newest version of `key`, retained or not; none when it has no versions. */
  async newest(key: string): Promise<VersionMark | undefined> {
    const input = { ...this.markInput(key), ScanIndexForward: false, Limit: 1 };
    for await (const items of this.pages(key, 'versions read', input)) {
      const [item] = items;
      if (item) return this.codec.mark(item);
    }
    return undefined;
  }

  /** The transaction's put of version `mark` of `key`, never replacing another version. */
  put(key: string, json: string, mark: VersionMark): Put {
    const { maxAgeMs } = this.settings;
    const expiresAt = maxAgeMs === undefined ? undefined : Math.ceil((mark.time + maxAgeMs) / 1000);
    return {
      TableName: this.tableName,
      Item: this.codec.encode(key, json, mark, expiresAt),
      ConditionExpression: 'attribute_not_exists(#time)',
      ExpressionAttributeNames: { '#time': VERSION_TIME_ATTRIBUTE },
    };
  }

  /**
   * Deletes the versions of `key` past the retention, given its newest: they are its oldest,
   * so an ascending query meets them first and stops at the first one retained. A write
   * usually pushes one version out, so the first page is two items; the next are larger.
   */
  async trim(key: string, newest: VersionMark): Promise<void> {
    const { keep, maxAgeMs } = this.settings;
    if (maxAgeMs === undefined && (keep === undefined || newest.seq <= keep)) return;
    let start: Item | undefined;
    for (let limit = 2; ; limit = DELETE_BATCH) {
      const input = { ...this.markInput(key), ScanIndexForward: true, Limit: limit };
      const page = await this.page(key, 'versions trim', input, start);
      const items = page.Items ?? [];
      const past = items.filter((item) => !this.retainedAfter(this.codec.mark(item), newest));
      await this.deleteAll(key, past);
      start = page.LastEvaluatedKey;
      if (past.length < items.length || start === undefined) return;
    }
  }

  /** Whether `mark` is within the retention, `newest` being the key's newest version. */
  private retainedAfter(mark: VersionMark, newest: VersionMark): boolean {
    const { keep } = this.settings;
    const oldest = this.oldestRetained();
    return (
      (keep === undefined || mark.seq > newest.seq - keep) &&
      (oldest === undefined || mark.time >= oldest)
    );
  }

  private async retained(key: string, mark: VersionMark): Promise<boolean> {
    const oldest = this.oldestRetained();
    if (oldest !== undefined && mark.time < oldest) return false;
    const floor = await this.seqFloor(key);
    return floor === undefined || (floor !== null && mark.seq >= floor);
  }

  /** The oldest time still within the age limit, by this server's clock; none without one. */
  private oldestRetained(): number | undefined {
    const { maxAgeMs } = this.settings;
    return maxAgeMs === undefined ? undefined : this.context.clock.now() - maxAgeMs;
  }

  /**
   * The lowest sequence number within the count limit (`undefined` without one, `null` when the
   * key has no versions at all).
   */
  private async seqFloor(key: string): Promise<number | undefined | null> {
    const { keep } = this.settings;
    if (keep === undefined) return undefined;
    const newest = await this.newest(key);
    return newest === undefined ? null : newest.seq - keep + 1;
  }

  private listInput(key: string, bounds: TimeBounds, seqFloor: number | undefined) {
    const condition = keyCondition(this.context.keyAttribute, key, bounds);
    return {
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...MARK_ONLY.names },
      ProjectionExpression: MARK_ONLY.ProjectionExpression,
      ScanIndexForward: false,
      ...(seqFloor !== undefined && {
        FilterExpression: '#seq >= :floor',
        ExpressionAttributeValues: {
          ...condition.ExpressionAttributeValues,
          ':floor': { N: String(seqFloor) },
        },
      }),
    };
  }

  /** Every version of `key`, oldest first, projected on its mark. */
  private markInput(key: string) {
    const condition = keyCondition(this.context.keyAttribute, key);
    return {
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...MARK_ONLY.names },
      ProjectionExpression: MARK_ONLY.ProjectionExpression,
    };
  }

  /** The pages of a query, each of at most `limit` items evaluated (before any filter). */
  private async *pages(
    key: string,
    operation: string,
    input: Omit<QueryCommandInput, 'TableName'>,
    limit?: number,
  ): AsyncGenerator<Item[]> {
    let start: Item | undefined;
    do {
      const limited = limit === undefined ? input : { ...input, Limit: limit };
      const output = await this.page(key, operation, limited, start);
      yield output.Items ?? [];
      start = output.LastEvaluatedKey;
    } while (start);
  }

  /** One page of a strongly consistent query: a version is read right after its write. */
  private page(
    key: string,
    operation: string,
    input: Omit<QueryCommandInput, 'TableName'>,
    start: Item | undefined,
  ) {
    const command = new QueryCommand({
      ...input,
      TableName: this.tableName,
      ConsistentRead: true,
      ...(start && { ExclusiveStartKey: start }),
    });
    const call = { operation, key, tableName: this.tableName };
    return this.send(call, () => this.context.client.send(command));
  }

  private async deleteAll(key: string, items: readonly Item[]): Promise<void> {
    const call = { operation: 'version delete', key, tableName: this.tableName };
    for (let from = 0; from < items.length; from += DELETE_BATCH) {
      const batch = items.slice(from, from + DELETE_BATCH).map((item) => {
        const command = new DeleteItemCommand({
          TableName: this.tableName,
          Key: this.codec.key(key, this.codec.mark(item).time),
        });
        return this.send(call, () => this.context.client.send(command));
      });
      await Promise.all(batch);
    }
  }

  private async send<T>(
    call: { operation: string; key: string; tableName: string },
    send: () => Promise<T>,
  ): Promise<T> {
    try {
      return await withThrottleRetries(
        call,
        this.context.throttleRetries,
        this.context.logger,
        send,
      );
    } catch (error) {
      throw translateDynamoError(error, call);
    }
  }
}
