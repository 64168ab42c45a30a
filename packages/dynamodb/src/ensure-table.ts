import {
  CreateTableCommand,
  DescribeTableCommand,
  type DescribeTableCommandOutput,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { translateDynamoError } from './errors.js';
import { checkTableOptions, type TableOptions } from './table-options.js';

type TableDescription = NonNullable<DescribeTableCommandOutput['Table']>;

export interface EnsureTableOptions extends TableOptions {
  /**
   * Turns on DynamoDB's TTL on this attribute: `expiresAt` for a `DynamoPresence` table, so
   * DynamoDB deletes the items of servers long gone. Leave unset for a store table.
   */
  readonly timeToLiveAttribute?: string;
  /** How long to wait for a new table to become active, in seconds (default 120). */
  readonly waitSeconds?: number;
}

/**
 * Creates the table DataDriver needs when it does not exist (on-demand capacity, a string
 * partition key, no sort key) and waits until it is active. An existing table is checked,
 * not changed: a different key schema fails with `Data.Misconfigured`. Made for setup scripts
 * and tests; in production prefer the CloudFormation snippet in the README.
 */
export async function ensureTable(options: EnsureTableOptions): Promise<'created' | 'exists'> {
  const { client, tableName, keyAttribute } = checkTableOptions(options);
  try {
    const existing = await describeTable(client, tableName);
    if (existing) checkKeySchema(existing, keyAttribute);
    else await createTable(client, tableName, keyAttribute);
    const maxWaitTime = options.waitSeconds ?? 120;
    await waitUntilTableExists(
      { client, maxWaitTime, minDelay: 1, maxDelay: 5 },
      { TableName: tableName },
    );
    if (options.timeToLiveAttribute !== undefined) {
      await enableTimeToLive(client, tableName, options.timeToLiveAttribute);
    }
    return existing ? 'exists' : 'created';
  } catch (error) {
    throw translateDynamoError(error, { operation: 'table setup', tableName });
  }
}

async function describeTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (awsName(error) === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

async function createTable(client: DynamoDBClient, tableName: string, keyAttribute: string) {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: keyAttribute, AttributeType: 'S' }],
        KeySchema: [{ AttributeName: keyAttribute, KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } catch (error) {
    // Another process created it between our describe and create: check what it made.
    if (awsName(error) !== 'ResourceInUseException') throw error;
    const table = await describeTable(client, tableName);
    if (table) checkKeySchema(table, keyAttribute);
  }
}

function checkKeySchema(table: TableDescription, keyAttribute: string): void {
  const keys = table.KeySchema ?? [];
  const types = new Map(table.AttributeDefinitions?.map((d) => [d.AttributeName, d.AttributeType]));
  const hash = keys.find((key) => key.KeyType === 'HASH');
  const fits =
    keys.length === 1 && hash?.AttributeName === keyAttribute && types.get(keyAttribute) === 'S';
  if (fits) return;
  const found = keys.map((k) => `${k.AttributeName} (${k.KeyType}, ${types.get(k.AttributeName)})`);
  throw new DataDriverError(
    ErrorCode.Misconfigured,
    `table ${table.TableName} has the key schema ${found.join(', ')}; DataDriver needs a string partition key named ${keyAttribute} and no sort key`,
    { details: { tableName: table.TableName, keyAttribute } },
  );
}

async function enableTimeToLive(client: DynamoDBClient, tableName: string, attribute: string) {
  const described = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const { TimeToLiveStatus: status, AttributeName: current } =
    described.TimeToLiveDescription ?? {};
  const on = status === 'ENABLED' || status === 'ENABLING';
  if (on && current === attribute) return;
  if (on) {
    throw new DataDriverError(
      ErrorCode.Misconfigured,
      `table ${tableName} has TTL on ${current}, not ${attribute}; a table has one TTL attribute`,
      { details: { tableName, timeToLiveAttribute: current } },
    );
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { Enabled: true, AttributeName: attribute },
    }),
  );
}

/** The name the SDK gives a service error (`ResourceNotFoundException`). */
function awsName(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { name?: unknown }).name
    : undefined;
}
