import { randomUUID } from 'node:crypto';
import { PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { fuzzSuite } from '@datadriver/testkit';
import { inject } from 'vitest';
import { DynamoStore } from '../src/index.js';
import { freshTable, makeClient, rawItem } from './support/dynamo-client.js';

// The store only: DynamoDB carries no messages here.
fuzzSuite(
  'DynamoDB Local',
  async () => {
    const client = makeClient(inject('dynamoEndpoint'));
    const table = await freshTable(client, 'fuzz', 'pk');
    const { tableName } = table;
    return {
      store: new DynamoStore({ client, tableName }),
      readJson: async (key) => (await rawItem(client, tableName, key))?.record?.S,
      writeJson: async (key, json) => {
        const Item = { pk: { S: key }, record: { S: json }, revision: { S: randomUUID() } };
        await client.send(new PutItemCommand({ TableName: tableName, Item }));
      },
      rawKeyOf: (key) => key,
      snapshot: async () => {
        const items = new Map<string, string>();
        let start: Record<string, never> | undefined;
        do {
          const page = await client.send(
            new ScanCommand({
              TableName: tableName,
              ConsistentRead: true,
              ExclusiveStartKey: start,
            }),
          );
          for (const item of page.Items ?? []) items.set(item.pk?.S ?? '', JSON.stringify(item));
          start = page.LastEvaluatedKey as Record<string, never> | undefined;
        } while (start);
        return items;
      },
      close: async () => {
        await table.drop();
        client.destroy();
      },
    };
  },
  { messages: false },
);
