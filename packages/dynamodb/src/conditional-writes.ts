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
import { type Item, type ItemCodec, REVISION_ATTRIBUTE, type StoredItem } from './item-codec.js';
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
      /** The item that failed the condition, as `ALL_OLD` carried it (none: no item now). */
      readonly current: StoredItem | undefined;
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
      const { outcome, seenItem } = this.conflictOutcome(key, error, call);
      // The SDK resent a write whose first response was lost, and it was ours that landed.
      // (Should another write have landed after ours, this reads as a conflict and the
      // transform runs again on that newer record: the port allows a rejected-looking write
      // to have committed.)
      if (seenItem?.[REVISION_ATTRIBUTE]?.S === revision) return written;
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
      return this.conflictOutcome(key, error, call).outcome;
    }
  }

  /**
   * A failed condition is a conflict, reported with the item that beat us (`ALL_OLD`, none
   * when it is gone); any other failure is rethrown as a DataDriverError.
   */
  private conflictOutcome(
    key: string,
    error: unknown,
    call: RecordCall,
  ): { outcome: WriteOutcome; seenItem: Item | undefined } {
    if (classifyDynamoError(error) !== 'conflict') throw translateDynamoError(error, call);
    const seenItem = recordItemSeen(error);
    const current = this.ctx.codec.decode(key, seenItem);
    return { outcome: { kind: 'conflict', error, current }, seenItem };
  }
}

export function recordCall(operation: string, key: string, tableName: string): RecordCall {
  return { operation, key, tableName };
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
