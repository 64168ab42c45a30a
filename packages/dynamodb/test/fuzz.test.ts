import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type FuzzHarness, fuzzSuite } from '@datadriver/testkit';
import { inject } from 'vitest';
import { DynamoStore } from '../src/index.js';
import { freshTable, makeClient, rawItem } from './support/dynamo-client.js';

// The store only: DynamoDB carries no messages here.
fuzzSuite('DynamoDB Local', () => dynamoHarness(false), { messages: false });
// With versions on, a save writes a version item in the second table too: it counts as its
// record's change, and no other record's.
fuzzSuite('DynamoDB Local, versions on', () => dynamoHarness(true), { messages: false });

async function dynamoHarness(versions: boolean): Promise<FuzzHarness> {
  const client = makeClient(inject('dynamoEndpoint'));
  const table = await freshTable(client, 'fuzz', 'pk', { versions });
  const { tableName, versionsTableName } = table;
  const store = new DynamoStore({
    client,
    tableName,
    ...(versionsTableName && { versions: { tableName: versionsTableName, keep: 3 } }),
  });
  /** Every record's item, with its version items (by store key) appended in time order. */
  const snapshot = async () => {
    const items = await scan(client, tableName);
    if (versionsTableName === undefined) return items;
    for (const [key, kept] of await scan(client, versionsTableName, true)) {
      items.set(key, `${items.get(key) ?? ''} versions=${kept}`);
    }
    return items;
  };
  return {
    store,
    readJson: async (key) => (await rawItem(client, tableName, key))?.record?.S,
    writeJson: async (key, json) => {
      const Item = { pk: { S: key }, record: { S: json }, revision: { S: randomUUID() } };
      await client.send(new PutItemCommand({ TableName: tableName, Item }));
    },
    rawKeyOf: (key) => key,
    snapshot,
    close: async () => {
      try {
        // The versions suite must have kept versions, or it fuzzed no derived item.
        if (versionsTableName && (await scan(client, versionsTableName, true)).size === 0) {
          throw new Error('no version was kept in the run');
        }
      } finally {
        await table.drop();
        client.destroy();
      }
    },
  };
}

/**
 * Every item of `tableName` as JSON by its `pk`; with `grouped`, the items of one `pk` (a
 * versions table's, sorted by `time`) joined into one entry.
 */
async function scan(
  client: DynamoDBClient,
  tableName: string,
  grouped = false,
): Promise<Map<string, string>> {
  const items: Array<[string, number, string]> = [];
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) {
      items.push([item.pk?.S ?? '', Number(item.time?.N ?? 0), JSON.stringify(item)]);
    }
    start = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
  const byKey = new Map<string, string>();
  for (const [key, , json] of items.sort((a, b) => a[1] - b[1])) {
    byKey.set(key, grouped && byKey.has(key) ? `${byKey.get(key)},${json}` : json);
  }
  return byKey;
}
