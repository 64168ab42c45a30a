/**
 * The testkit's restoreAt and erase scenarios with versioned DynamoStores: restoreAt and erase
 * on server B while the player is live on A, through handoff. Versions are stamped by the
 * writers' clocks, which restoreAt's time is compared against (one machine's clock here).
 * Same scale as the handoff scenarios; DD_SCALE overrides it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runLifecycleScenarios } from '@datadriver/testkit';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { ClientPool } from './support/client-pool.js';
import { freshTable, makeClient } from './support/dynamo-client.js';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';

const scale = Number(process.env.DD_SCALE ?? 0.08);

let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;
let pool: ClientPool;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'lifecycle', 'pk', { versions: true });
  pool = new ClientPool(inject('dynamoEndpoint'), table.tableName);
  await pool.fill(4);
});

afterAll(async () => {
  await table?.drop();
  pool?.destroy();
  direct?.destroy();
});

describe('DynamoStore with versions', () => {
  runLifecycleScenarios('DynamoDB Local + in-memory messenger and presence', () =>
    dynamoClusterBackend({
      direct,
      pool,
      tableName: table.tableName,
      scale,
      versions: { keep: 50, tableName: `${table.tableName}-versions` },
    }),
  );
});
