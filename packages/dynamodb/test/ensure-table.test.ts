import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { ErrorCode } from '@datadriver/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../src/index.js';
import { makeClient, uniqueTableName as unique } from './support/dynamo-client.js';

let client: DynamoDBClient;
const made: string[] = [];

/** A table name for this file, dropped at the end (an external DDB_ENDPOINT keeps tables). */
function uniqueTableName(purpose: string): string {
  const name = unique(purpose);
  made.push(name);
  return name;
}

beforeAll(() => {
  client = makeClient(inject('dynamoEndpoint'));
});

afterAll(async () => {
  for (const TableName of made) {
    await client.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
  }
  client?.destroy();
});

describe('ensureTable', () => {
  it('creates an on-demand table with a string partition key and no sort key, once', async () => {
    const tableName = uniqueTableName('ensure');
    expect(await ensureTable({ client, tableName, keyAttribute: 'id' })).toBe('created');
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(Table?.AttributeDefinitions).toEqual([{ AttributeName: 'id', AttributeType: 'S' }]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(await ensureTable({ client, tableName, keyAttribute: 'id' })).toBe('exists');
  });

  it('lets concurrent callers race to create one table', async () => {
    const tableName = uniqueTableName('race');
    const results = await Promise.all([1, 2, 3].map(() => ensureTable({ client, tableName })));
    expect(results).toContain('created');
    expect(results.every((result) => result === 'created' || result === 'exists')).toBe(true);
  });

  it('refuses an existing table with another key schema as Data.Misconfigured, leaving it as it is', async () => {
    const tableName = uniqueTableName('wrong-schema');
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await expect(ensureTable({ client, tableName })).rejects.toMatchObject({
      code: ErrorCode.Misconfigured,
      message: expect.stringContaining('needs a string partition key named pk and no sort key'),
    });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.KeySchema).toHaveLength(2);
  });

  it('turns on TTL for a presence table', async () => {
    const tableName = uniqueTableName('ttl');
    await ensureTable({ client, tableName, timeToLiveAttribute: 'expiresAt' });
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tableName }),
    );
    expect(TimeToLiveDescription).toEqual({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: 'expiresAt',
    });
    expect(await ensureTable({ client, tableName, timeToLiveAttribute: 'expiresAt' })).toBe(
      'exists',
    );
    await expect(
      ensureTable({ client, tableName, timeToLiveAttribute: 'other' }),
    ).rejects.toMatchObject({ code: ErrorCode.Misconfigured });
  });
});
