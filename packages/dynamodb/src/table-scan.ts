/**
 * A strongly consistent `Scan` of a whole table, page by page: the optional scans of the
 * Store and Presence ports (read-only, for tools such as the CLI, never for lock decisions).
 */
import {
  type DynamoDBClient,
  ScanCommand,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { type FailedCall, translateDynamoError } from './errors.js';
import type { Item } from './item-codec.js';

export interface ScanRequest {
  readonly client: DynamoDBClient;
  readonly call: FailedCall;
  /** The scan without its paging: table, filter, projection. */
  readonly input: Omit<ScanCommandInput, 'ExclusiveStartKey' | 'ConsistentRead'>;
  /** Sends one page; the store wraps it in its throttle retries. */
  readonly send?: <T>(send: () => Promise<T>) => Promise<T>;
}

/** Every item the scan matches, page after page. */
export async function* scanTable(request: ScanRequest): AsyncGenerator<Item> {
  const send = request.send ?? ((call) => call());
  let start: Item | undefined;
  do {
    const input = { ...request.input, ConsistentRead: true, ExclusiveStartKey: start };
    let page: ScanCommandOutput;
    try {
      page = await send(() => request.client.send(new ScanCommand(input)));
    } catch (error) {
      throw translateDynamoError(error, request.call);
    }
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
}

/** The scan input that lists the key attribute of the items holding a record under `prefix`. */
export function recordKeysUnder(
  tableName: string,
  keyAttribute: string,
  recordAttribute: string,
  prefix: string,
): ScanRequest['input'] {
  const names = { '#key': keyAttribute, '#record': recordAttribute };
  if (prefix === '') {
    return {
      TableName: tableName,
      ProjectionExpression: '#key',
      FilterExpression: 'attribute_exists(#record)',
      ExpressionAttributeNames: names,
    };
  }
  return {
    TableName: tableName,
    ProjectionExpression: '#key',
    FilterExpression: 'attribute_exists(#record) AND begins_with(#key, :prefix)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':prefix': { S: prefix } },
  };
}
