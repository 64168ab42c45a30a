import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  DataDriverError,
  ErrorCode,
  type Presence,
  type PresenceEntry,
} from '@datadriver/core/ports';
import { classifyDynamoError, translateDynamoError } from './errors.js';
import { type Item, RECORD_ATTRIBUTE } from './item-codec.js';
import { PresenceSightings } from './presence-sightings.js';
import { checkTableOptions, type TableOptions } from './table-options.js';
import { scanTable } from './table-scan.js';

/** The attribute that `ensureTable({ timeToLiveAttribute })` should name for a presence table. */
export const PRESENCE_EXPIRY_ATTRIBUTE = 'expiresAt';

/**
 * A beat replaces only nothing or a beat: on a table shared with the store (or anything else),
 * a key that names a record (a jobId such as `PlayerData/x`) must not overwrite it.
 */
const ONLY_OVER_A_BEAT =
  'attribute_not_exists(#record) AND (attribute_not_exists(#key) OR attribute_exists(#beat))';

export interface DynamoPresenceOptions extends TableOptions {
  /**
   * Seconds past a key's TTL at which DynamoDB's own TTL may delete its item (default one
   * day): cleanup of servers long gone, never part of an answer.
   */
  readonly cleanupAfterSeconds?: number;
  /** A monotonic clock in ms for timing sightings (default `performance.now()`). */
  readonly monotonicNow?: () => number;
}

/**
 * Presence on DynamoDB: each `set` writes a fresh beat id, and a reader reports a key expired
 * once it has itself seen the same beat for the key's TTL, on its own monotonic clock. The
 * "stopped" answer thus never compares two servers' clocks; the price is that a reader that
 * sees a key for the first time counts its TTL from then (see the README). Reads are strongly
 * consistent: a stale read could show an old beat and end a live server's presence.
 */
export class DynamoPresence implements Presence {
  /** The port contract implemented; core refuses another. */
  readonly specificationVersion = 'v1';
  /**
   * Each reader counts a key's TTL from its own first sighting of the beat: a driver with this
   * presence waits one presence TTL longer by default (25 s), so a crash never kicks a player.
   */
  readonly expiryCountedFrom = 'first-read';
  /** The table this presence reads and writes. */
  readonly tableName: string;
  private readonly client: DynamoDBClient;
  private readonly keyAttribute: string;
  private readonly cleanupAfterSeconds: number;
  private readonly sightings: PresenceSightings;

  constructor(options: DynamoPresenceOptions) {
    const table = checkTableOptions(options);
    this.client = table.client;
    this.tableName = table.tableName;
    this.keyAttribute = table.keyAttribute;
    this.cleanupAfterSeconds = options.cleanupAfterSeconds ?? 86_400;
    this.sightings = new PresenceSightings(options.monotonicNow);
  }

  /**
   * Writes `value` under `key` with a fresh beat id; readers see it expire `ttlSeconds` on.
   * Refuses (`Data.InvalidRecord`) to replace an item that is not a beat, leaving it as it was.
   */
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const cleanupAt = Math.ceil(Date.now() / 1000 + ttlSeconds + this.cleanupAfterSeconds);
    const item: Item = {
      [this.keyAttribute]: { S: key },
      value: { S: value },
      beat: { S: randomUUID() },
      ttlSeconds: { N: String(ttlSeconds) },
      [PRESENCE_EXPIRY_ATTRIBUTE]: { N: String(cleanupAt) },
    };
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: ONLY_OVER_A_BEAT,
          ExpressionAttributeNames: {
            '#record': RECORD_ATTRIBUTE,
            '#key': this.keyAttribute,
            '#beat': 'beat',
          },
        }),
      );
    } catch (error) {
      if (classifyDynamoError(error) === 'conflict') {
        throw new DataDriverError(
          ErrorCode.InvalidRecord,
          `the DynamoDB item under ${key} in ${this.tableName} is not a presence beat (a record?), so the presence write left it as it was: give presence a table of its own, or a jobId that is no record's key`,
          { cause: error, details: { key, tableName: this.tableName } },
        );
      }
      throw translateDynamoError(error, {
        operation: 'presence write',
        key,
        tableName: this.tableName,
      });
    }
  }

  /** The value under `key`, or `undefined` once this reader has seen its beat last a TTL. */
  async get(key: string): Promise<string | undefined> {
    return (await this.getEntry(key))?.value;
  }

  /**
   * `get`, with the ms until this reader will read the key as expired, by its own sightings (a
   * TTL from its first sighting of the beat): a joiner waiting on a stopped server reads again
   * then. No writer's clock is consulted, as for `get`.
   */
  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    const item = await this.read(key);
    if (item === undefined) {
      this.sightings.forget(key);
      return undefined;
    }
    const { value, beat, ttlSeconds } = parsePresenceItem(key, item);
    const leftMs = this.sightings.leftMs(key, beat, ttlSeconds * 1000);
    return leftMs > 0 ? { key, value, expiresInMs: Math.ceil(leftMs) } : undefined;
  }

  /**
   * Every key this reader would read as present now (a strongly consistent `Scan`), judged by
   * the same sightings as `get`: a key seen for the first time counts as present, so only a
   * second scan a TTL later tells a stopped server. Items that are no presence beat are left
   * out. Entries carry no `expiresInMs`: no clock here knows when the writer beat.
   */
  async *scan(): AsyncGenerator<PresenceEntry> {
    const items = scanTable({
      client: this.client,
      call: { operation: 'presence scan', tableName: this.tableName },
      input: { TableName: this.tableName },
    });
    for await (const item of items) {
      const key = item[this.keyAttribute]?.S;
      if (key === undefined) continue;
      let beat: ReturnType<typeof parsePresenceItem>;
      try {
        beat = parsePresenceItem(key, item);
      } catch {
        continue; // not a beat: a record, or someone else's item
      }
      if (this.sightings.isFresh(key, beat.beat, beat.ttlSeconds * 1000)) {
        yield { key, value: beat.value };
      }
    }
  }

  private async read(key: string): Promise<Item | undefined> {
    try {
      const output = await this.client.send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: { [this.keyAttribute]: { S: key } },
          ConsistentRead: true,
        }),
      );
      return output.Item;
    } catch (error) {
      throw translateDynamoError(error, {
        operation: 'presence read',
        key,
        tableName: this.tableName,
      });
    }
  }
}

function parsePresenceItem(key: string, item: Item) {
  const value = item.value?.S;
  const beat = item.beat?.S;
  const ttlSeconds = Number(item.ttlSeconds?.N);
  if (value === undefined || beat === undefined || !(ttlSeconds > 0)) {
    // Rejecting makes the caller's answer "unknown": a foreign item proves nothing either way.
    throw new DataDriverError(
      ErrorCode.InvalidRecord,
      `the DynamoDB item under ${key} is not a presence beat (value, beat, ttlSeconds)`,
      { details: { key } },
    );
  }
  return { value, beat, ttlSeconds };
}
