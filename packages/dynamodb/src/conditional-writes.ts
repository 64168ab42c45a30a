/**
 * The record's writes: a put or a delete conditioned on the item being as it was seen (absent,
 * or at the revision seen), with `ALL_OLD` on a failed condition, so a conflict carries the
 * item stored now and the transform runs again with no read. A write that keeps a version is a
 * transaction of that conditional put and the version's put.
 */
import {
  DeleteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { nextVersionId, type StoreRecord } from '@datadriver/core/ports';
import type { DynamoVersions } from './dynamo-versions.js';
import { classifyDynamoError, type FailedCall, translateDynamoError } from './errors.js';
import type { Item, ItemCodec, StoredItem } from './item-codec.js';
import type { VersionMark } from './version-mark.js';
import { unchangedSince } from './write-condition.js';

/** A call on one record. */
export type RecordCall = FailedCall & { readonly key: string };

/** What one conditional write did. */
export type WriteOutcome =
  | { readonly kind: 'written'; readonly item: StoredItem | undefined }
  | {
      readonly kind: 'conflict';
      readonly error: unknown;
      /**
       * The item stored now, when the failure says so: the record's own condition failed and
       * `ALL_OLD` carried its item (`item` undefined: there is none). Undefined when the failure
       * does not say (a conflict with another transaction, the version's put failing): then
       * only a read tells.
       */
      readonly current: { readonly item: StoredItem | undefined } | undefined;
    };

export interface ConditionalWritesContext {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly codec: ItemCodec;
  readonly versions: DynamoVersions | undefined;
  /** Sends a call with the store's throttle retries. */
  send<T>(call: FailedCall, send: () => Promise<T>): Promise<T>;
}

export class ConditionalWrites {
  constructor(private readonly ctx: ConditionalWritesContext) {}

  /** Puts `next` over `seen`, keeping it as version `version` when one is given. */
  async put(
    key: string,
    seen: StoredItem | undefined,
    next: StoreRecord,
    version: VersionMark | undefined,
  ): Promise<WriteOutcome> {
    const { client, codec, tableName, versions } = this.ctx;
    const revision = nextVersionId();
    // Encoding checks the size: an oversized record fails here, before anything is sent.
    // A write that keeps no version carries the mark of the newest one forward.
    const newestVersion = version ?? seen?.newestVersion;
    const { item, json } = codec.encode(key, next, revision, newestVersion);
    // The record the transform returned: nobody changes it, so no copy is needed.
    const written = { kind: 'written', item: { record: next, revision, newestVersion } } as const;
    // The version's item is checked for size too, before anything is sent.
    const versionPut = version && versions?.put(key, json, version);
    const call = recordCall(
      versionPut ? `write (with its version in table ${versionPut.TableName})` : 'write',
      key,
      tableName,
    );
    const put = {
      TableName: tableName,
      Item: item,
      ...unchangedSince(codec.keyAttribute, seen),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    } as const;
    try {
      const send = versionPut
        ? () =>
            client.send(
              new TransactWriteItemsCommand({
                TransactItems: [{ Put: put }, { Put: versionPut }],
                // The revision as the idempotency token: a transaction the SDK resends after
                // a lost response is not applied twice.
                ClientRequestToken: revision,
              }),
            )
        : () => client.send(new PutItemCommand(put));
      await this.ctx.send<unknown>(call, send);
      return written;
    } catch (error) {
      const outcome = this.conflictOutcome(key, error, call);
      // The SDK resent a write whose first response was lost, and it was ours that landed.
      // (Should another write have landed after ours, this reads as a conflict and the
      // transform runs again on that newer record: the port allows a rejected-looking write
      // to have committed.)
      if (outcome.current?.item?.revision === revision) return written;
      return outcome;
    }
  }

  /** Deletes the item where it is still as `seen`. */
  async delete(key: string, seen: StoredItem | undefined): Promise<WriteOutcome> {
    const { client, codec, tableName } = this.ctx;
    const call = recordCall('delete', key, tableName);
    try {
      await this.ctx.send(call, () =>
        client.send(
          new DeleteItemCommand({
            TableName: tableName,
            Key: codec.key(key),
            ...unchangedSince(codec.keyAttribute, seen),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { kind: 'written', item: undefined };
    } catch (error) {
      return this.conflictOutcome(key, error, call);
    }
  }

  /**
   * A failed condition is a conflict, reported with the item that beat us where the failure
   * carries it; any other failure is rethrown as a DataDriverError.
   */
  private conflictOutcome(
    key: string,
    error: unknown,
    call: RecordCall,
  ): Extract<WriteOutcome, { kind: 'conflict' }> {
    if (classifyDynamoError(error) !== 'conflict') throw translateDynamoError(error, call);
    const seen = recordItemSeen(error);
    const current = seen && { item: this.ctx.codec.decode(key, seen.item) };
    return { kind: 'conflict', error, current };
  }
}

export function recordCall(operation: string, key: string, tableName: string): RecordCall {
  return { operation, key, tableName };
}

/**
 * The record item that failed the write's condition (`ALL_OLD`), where the record's own
 * condition failed: the error's for a PutItem or DeleteItem, the first action's for a
 * transaction. No `Item` then means no item is stored. Undefined where the failure is another
 * (a `TransactionConflict`, a conflict of the version's put): the record may be as it was
 * seen, and taking "no `Item`" for "no item" would read a live record as gone.
 */
function recordItemSeen(error: unknown): { readonly item: Item | undefined } | undefined {
  const failure = error as {
    readonly name?: unknown;
    readonly Item?: Item;
    readonly CancellationReasons?: readonly { readonly Code?: unknown; readonly Item?: Item }[];
  };
  if (failure.name === 'ConditionalCheckFailedException') return { item: failure.Item };
  const record = failure.CancellationReasons?.[0];
  if (failure.name === 'TransactionCanceledException' && record?.Code === 'ConditionalCheckFailed')
    return { item: record.Item };
  return undefined;
}
