import { startTcpProxy } from '@datadriver/backends';
import { storeConformance } from '@datadriver/testkit';
import { inject } from 'vitest';
import { DynamoStore } from '../src/index.js';
import { freshTable, makeClient, rawRecord } from './support/dynamo-client.js';
import { InFlight } from './support/in-flight.js';

storeConformance('DynamoDB Local', async () => {
  const endpoint = inject('dynamoEndpoint');
  const direct = makeClient(endpoint);
  const { tableName, drop } = await freshTable(direct, 'conformance');
  // The adapter reaches DynamoDB Local through a TCP proxy, so the outage test can cut it.
  const { hostname, port } = new URL(endpoint);
  const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
  const clients = [direct];
  const inFlight = new InFlight();
  return {
    connect: async () => {
      const client = makeClient(`http://127.0.0.1:${proxy.port}`);
      clients.push(client);
      return inFlight.track(new DynamoStore({ client, tableName }));
    },
    // The suite's conflict case races a write it does not await: read once it has landed.
    read: async (key) => {
      await inFlight.settled();
      return rawRecord(direct, tableName, key);
    },
    outage: {
      stop: async () => {
        await inFlight.settled();
        await proxy.stop();
      },
      start: () => proxy.start(),
    },
    close: async () => {
      await drop();
      await proxy.close();
      for (const client of clients) client.destroy();
    },
  };
});
