/** DynamoDB Local tables for one test file, and every item of them, to prove nothing changed. */
import { DeleteTableCommand, DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { ensureTable, PRESENCE_EXPIRY_ATTRIBUTE } from '@datadriver/dynamodb';
import { uniquePrefix } from './names.js';

/** The CLI reads the AWS environment, as a person's shell would give it. */
export const LOCAL_AWS_ENV = {
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_REGION: 'us-east-1',
};

export function dynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
}

export interface Tables {
  readonly records: string;
  readonly versions: string;
  readonly presence: string;
  drop(): Promise<void>;
}

export async function freshTables(client: DynamoDBClient): Promise<Tables> {
  const name = uniquePrefix('ddb').replace(/:$/, '');
  const records = name;
  const versions = `${name}-versions`;
  const presence = `${name}-presence`;
  await ensureTable({ client, tableName: records, versions: { tableName: versions } });
  await ensureTable({
    client,
    tableName: presence,
    timeToLiveAttribute: PRESENCE_EXPIRY_ATTRIBUTE,
  });
  return {
    records,
    versions,
    presence,
    drop: async () => {
      for (const TableName of [records, versions, presence]) {
        await client.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
      }
    },
  };
}

/** Every item of `tables`, as JSON sorted by key: equal snapshots mean nothing was written. */
export async function dynamoSnapshot(client: DynamoDBClient, tables: readonly string[]) {
  const snapshot: Record<string, string[]> = {};
  for (const TableName of tables) {
    const items: string[] = [];
    for await (const page of paginateScan({ client }, { TableName, ConsistentRead: true })) {
      for (const item of page.Items ?? [])
        items.push(JSON.stringify(item, Object.keys(item).sort()));
    }
    snapshot[TableName] = items.sort();
  }
  return snapshot;
}
