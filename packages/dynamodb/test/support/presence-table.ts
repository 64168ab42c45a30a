/** A fresh presence table (TTL on `expiresAt`) for one test file, dropped after its tests. */
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { ensureTable, PRESENCE_EXPIRY_ATTRIBUTE } from '../../src/index.js';
import { makeClient, uniqueTableName } from './dynamo-client.js';

export function presenceTable(purpose: string): { readonly tableName: string } {
  const tableName = uniqueTableName(purpose);
  let client: DynamoDBClient | undefined;
  beforeAll(async () => {
    client = makeClient(inject('dynamoEndpoint'));
    await ensureTable({ client, tableName, timeToLiveAttribute: PRESENCE_EXPIRY_ATTRIBUTE });
  });
  afterAll(async () => {
    await client?.send(new DeleteTableCommand({ TableName: tableName }));
    client?.destroy();
  });
  return { tableName };
}
