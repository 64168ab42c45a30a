/**
 * A fresh table and a pool of warm clients for one test file of scenarios, made before its
 * tests and dropped after them.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { ClientPool } from './client-pool.js';
import { freshTable, makeClient } from './dynamo-client.js';

export interface ScenarioTable {
  readonly direct: DynamoDBClient;
  readonly pool: ClientPool;
  readonly tableName: string;
}

/** Registers the set-up and tear-down; the fields are there once `beforeAll` has run. */
export function scenarioTable(
  purpose: string,
  options: { readonly clients: number; readonly versions?: boolean },
): ScenarioTable {
  let direct: DynamoDBClient | undefined;
  let table: Awaited<ReturnType<typeof freshTable>> | undefined;
  let pool: ClientPool | undefined;
  beforeAll(async () => {
    direct = makeClient(inject('dynamoEndpoint'));
    table = await freshTable(direct, purpose, 'pk', { versions: options.versions ?? false });
    pool = new ClientPool(inject('dynamoEndpoint'), table.tableName);
    await pool.fill(options.clients);
  });
  afterAll(async () => {
    await table?.drop();
    pool?.destroy();
    direct?.destroy();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the scenario table is made in beforeAll');
    return value;
  };
  return {
    get direct() {
      return ready(direct);
    },
    get pool() {
      return ready(pool);
    },
    get tableName() {
      return ready(table).tableName;
    },
  };
}
