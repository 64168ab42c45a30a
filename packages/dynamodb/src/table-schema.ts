/**
 * The key schemas DataDriver's tables need, and how a table is created with one or checked
 * against one. The store and presence tables have a string partition key and no sort key; the
 * versions table adds a number sort key (the version's time).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DescribeTableCommandOutput,
  type DynamoDBClient,
  type KeySchemaElement,
  type ScalarAttributeType,
} from '@aws-sdk/client-dynamodb';
import { DataDriverError, ErrorCode } from '@datadriver/core';

type TableDescription = NonNullable<DescribeTableCommandOutput['Table']>;

/** A table's key attributes, with their DynamoDB types. */
export interface KeySchema {
  readonly partitionKey: string;
  /** A number sort key, or none. */
  readonly sortKey?: string;
}

/** Creates `tableName` with `schema` unless it exists; 'exists' after checking its schema. */
export async function createOrCheck(
  client: DynamoDBClient,
  tableName: string,
  schema: KeySchema,
): Promise<'created' | 'exists'> {
  const existing = await describeTable(client, tableName);
  if (existing) {
    checkKeySchema(existing, schema);
    return 'exists';
  }
  return createTable(client, tableName, schema);
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

function keyElements(
  schema: KeySchema,
): { name: string; key: KeySchemaElement['KeyType']; type: ScalarAttributeType }[] {
  const partition = { name: schema.partitionKey, key: 'HASH', type: 'S' } as const;
  if (schema.sortKey === undefined) return [partition];
  return [partition, { name: schema.sortKey, key: 'RANGE', type: 'N' }];
}

async function createTable(
  client: DynamoDBClient,
  tableName: string,
  schema: KeySchema,
): Promise<'created' | 'exists'> {
  const elements = keyElements(schema);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: elements.map((e) => ({
          AttributeName: e.name,
          AttributeType: e.type,
        })),
        KeySchema: elements.map((e) => ({ AttributeName: e.name, KeyType: e.key })),
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    return 'created';
  } catch (error) {
    // Another process created it between our describe and create: check what it made.
    if (awsName(error) !== 'ResourceInUseException') throw error;
    const table = await describeTable(client, tableName);
    if (table) checkKeySchema(table, schema);
    return 'exists';
  }
}

function checkKeySchema(table: TableDescription, schema: KeySchema): void {
  const keys = table.KeySchema ?? [];
  const types = new Map(table.AttributeDefinitions?.map((d) => [d.AttributeName, d.AttributeType]));
  const wanted = keyElements(schema);
  const fits =
    keys.length === wanted.length &&
    wanted.every((element) =>
      keys.some(
        (key) =>
          key.AttributeName === element.name &&
          key.KeyType === element.key &&
          types.get(element.name) === element.type,
      ),
    );
  if (fits) return;
  const found = keys.map((k) => `${k.AttributeName} (${k.KeyType}, ${types.get(k.AttributeName)})`);
  throw new DataDriverError(
    ErrorCode.Misconfigured,
    `table ${table.TableName} has the key schema ${found.join(', ')}; DataDriver needs ${describeSchema(schema)}`,
    { details: { tableName: table.TableName, ...schema } },
  );
}

function describeSchema({ partitionKey, sortKey }: KeySchema): string {
  const partition = `a string partition key named ${partitionKey}`;
  return sortKey === undefined
    ? `${partition} and no sort key`
    : `${partition} and a number sort key named ${sortKey}`;
}

/** The name the SDK gives a service error (`ResourceNotFoundException`). */
export function awsName(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { name?: unknown }).name
    : undefined;
}
