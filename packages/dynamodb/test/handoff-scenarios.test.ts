import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runHandoffScenarios } from '@datadriver/testkit';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { ClientPool } from './support/client-pool.js';
import { freshTable, makeClient } from './support/dynamo-client.js';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';

// Real seconds per seed second, as on Redis. The scenarios run at once; the two that wait out
// 241 seed seconds take 24 s.
const scale = Number(process.env.DD_SCALE ?? 0.1);

let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;
let pool: ClientPool;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'handoff');
  pool = new ClientPool(inject('dynamoEndpoint'), table.tableName);
  await pool.fill(12);
});

afterAll(async () => {
  await table?.drop();
  pool?.destroy();
  direct?.destroy();
});

describe('DynamoStore', () => {
  runHandoffScenarios(
    'DynamoDB Local + in-memory messenger and presence',
    () => dynamoClusterBackend({ direct, pool, tableName: table.tableName, scale }),
    { concurrent: true },
  );
});
