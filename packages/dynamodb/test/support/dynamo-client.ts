import type { Agent } from 'node:http';
import {
  DeleteTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { StoreRecord } from '@datadriver/core/ports';
import { DynamoStore, ensureTable } from '../../src/index.js';

export interface ClientSettings {
  /** SDK attempts per call (first try included). */
  readonly maxAttempts?: number;
  readonly requestTimeoutMs?: number;
  /** An HTTP agent to share with other clients (the SDK makes one per client by default). */
  readonly agent?: Agent;
}

/**
 * A client as a user would configure one against DynamoDB Local, with small retries and
 * timeouts so an outage fails fast with a typed error.
 */
export function makeClient(endpoint: string, settings: ClientSettings = {}): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: settings.maxAttempts ?? 2,
    requestHandler: {
      connectionTimeout: 1_000,
      requestTimeout: settings.requestTimeoutMs ?? 3_000,
    },
  });
}

let tables = 0;

/** A table name no other run or file uses. */
export function uniqueTableName(purpose: string): string {
  tables += 1;
  return `dd-${purpose}-${process.pid}-${tables}-${Date.now().toString(36)}`;
}

/**
 * Creates a fresh table for one test file and returns its name and a deleter. A few writes
 * warm it up first: DynamoDB Local's first conditional writes to a new table take hundreds of
 * milliseconds, which a timed scenario would otherwise pay. With `versions`, the versions
 * table is made (and warmed, and dropped) with it.
 */
export async function freshTable(
  client: DynamoDBClient,
  purpose: string,
  keyAttribute = 'pk',
  options: { readonly versions?: boolean } = {},
) {
  const tableName = uniqueTableName(purpose);
  const versions = options.versions ? { tableName: `${tableName}-versions` } : undefined;
  await ensureTable({ client, tableName, keyAttribute, ...(versions && { versions }) });
  const warm = new DynamoStore({ client, tableName, keyAttribute, ...(versions && { versions }) });
  for (let round = 0; round < 5; round++) {
    await warm.update('warm-up', (current) => ({ n: ((current?.n as number) ?? 0) + 1 }), {
      keepVersion: true,
    });
  }
  await warm.update('warm-up', () => null);
  await warm.versions?.purge('warm-up');
  const drop = async (TableName: string) => {
    await client.send(new DeleteTableCommand({ TableName }));
  };
  return {
    tableName,
    versionsTableName: versions?.tableName,
    drop: async () => {
      await drop(tableName);
      if (versions) await drop(versions.tableName);
    },
  };
}

/** The raw item under `key`, read past the adapter. */
export async function rawItem(
  client: DynamoDBClient,
  tableName: string,
  key: string,
  keyAttribute = 'pk',
) {
  const output = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { [keyAttribute]: { S: key } },
      ConsistentRead: true,
    }),
  );
  return output.Item;
}

/** The record stored under `key`, decoded here (not by the adapter) from its JSON attribute. */
export async function rawRecord(
  client: DynamoDBClient,
  tableName: string,
  key: string,
  keyAttribute = 'pk',
) {
  const item = await rawItem(client, tableName, key, keyAttribute);
  const json = item?.record?.S;
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, never>);
}

/** Writes `record` under `key` past the adapter, as another writer would (key attribute `pk`). */
export async function rivalWrite(
  client: DynamoDBClient,
  tableName: string,
  key: string,
  record: StoreRecord,
): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        pk: { S: key },
        record: { S: JSON.stringify(record) },
        revision: { S: `rival-${Math.random()}` },
      },
    }),
  );
}
