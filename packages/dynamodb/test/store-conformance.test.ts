import { startTcpProxy } from '@datadriver/backends';
import { storeConformance } from '@datadriver/testkit';
import { inject } from 'vitest';
import { DynamoStore } from '../src/index.js';
import { freshTable, makeClient, rawRecord } from './support/dynamo-client.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

storeConformance(
  'DynamoDB Local',
  async () => {
    const endpoint = inject('dynamoEndpoint');
    const direct = makeClient(endpoint);
    const table = await freshTable(direct, 'conformance', 'pk', { versions: true });
    const { tableName } = table;
    const versions = { keep: KEEP, tableName: table.versionsTableName };
    // The adapter reaches DynamoDB Local through a TCP proxy, so the outage test can cut it.
    const { hostname, port } = new URL(endpoint);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const clients = [direct];
    return {
      connect: async () => {
        const client = makeClient(`http://127.0.0.1:${proxy.port}`);
        clients.push(client);
        return new DynamoStore({ client, tableName, versions });
      },
      read: (key) => rawRecord(direct, tableName, key),
      outage: proxy,
      close: async () => {
        await table.drop();
        await proxy.close();
        for (const client of clients) client.destroy();
      },
    };
  },
  { versions: { keep: KEEP }, scan: true },
);
