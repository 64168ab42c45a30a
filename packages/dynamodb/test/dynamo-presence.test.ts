import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startTcpProxy } from '@datadriver/backends';
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { presenceConformance } from '@datadriver/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoPresence, DynamoStore, PRESENCE_EXPIRY_ATTRIBUTE } from '../src/index.js';
import { PresenceSightings } from '../src/presence-sightings.js';
import { freshTable, makeClient } from './support/dynamo-client.js';

presenceConformance(
  'DynamoDB Local',
  async () => {
    const endpoint = inject('dynamoEndpoint');
    const direct = makeClient(endpoint);
    const { tableName, drop } = await freshTable(direct, 'presence-conformance');
    const { hostname, port } = new URL(endpoint);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const clients = [direct];
    return {
      // Each connection is its own reader, as each server is.
      connect: async () => {
        const client = makeClient(`http://127.0.0.1:${proxy.port}`);
        clients.push(client);
        return new DynamoPresence({ client, tableName });
      },
      outage: { stop: () => proxy.stop(), start: () => proxy.start() },
      close: async () => {
        await drop();
        await proxy.close();
        for (const client of clients) client.destroy();
      },
    };
  },
  { scan: true, getEntry: true },
);

describe('PresenceSightings', () => {
  it("is fresh until this reader has seen one beat for the TTL, on the reader's clock", () => {
    let now = 1_000;
    const sightings = new PresenceSightings(() => now);
    expect(sightings.isFresh('a', 'beat-1', 10_000)).toBe(true);
    now += 9_999;
    expect(sightings.isFresh('a', 'beat-1', 10_000)).toBe(true);
    now += 1;
    expect(sightings.isFresh('a', 'beat-1', 10_000)).toBe(false);
    expect(sightings.isFresh('a', 'beat-2', 10_000)).toBe(true); // a new beat restarts it
    expect(sightings.isFresh('b', 'beat-1', 10_000)).toBe(true); // keys are apart
  });

  it('starts over for a key it forgot', () => {
    let now = 0;
    const sightings = new PresenceSightings(() => now);
    sightings.isFresh('a', 'beat-1', 10);
    now = 50;
    expect(sightings.isFresh('a', 'beat-1', 10)).toBe(false);
    sightings.forget('a');
    expect(sightings.isFresh('a', 'beat-1', 10)).toBe(true);
  });
});

describe('DynamoPresence', () => {
  let direct: DynamoDBClient;
  let table: Awaited<ReturnType<typeof freshTable>>;
  let keys = 0;
  const freshKey = () => `presence-test-${++keys}`;

  beforeAll(async () => {
    direct = makeClient(inject('dynamoEndpoint'));
    table = await freshTable(direct, 'presence');
  });

  afterAll(async () => {
    await table?.drop();
    direct?.destroy();
  });

  /** A reader whose monotonic clock the test moves. */
  function reader() {
    const clock = { now: 0 };
    const presence = new DynamoPresence({
      client: direct,
      tableName: table.tableName,
      monotonicNow: () => clock.now,
    });
    return { presence, clock };
  }

  const writer = () => new DynamoPresence({ client: direct, tableName: table.tableName });

  it('answers "alive" while beats change and "expired" once one beat lasted the TTL', async () => {
    const key = freshKey();
    const { presence, clock } = reader();
    await writer().set(key, '1', 10);
    expect(await presence.get(key)).toBe('1');
    clock.now += 9_000;
    await writer().set(key, '1', 10); // a new beat, seen at once
    expect(await presence.get(key)).toBe('1');
    clock.now += 9_999;
    expect(await presence.get(key)).toBe('1');
    clock.now += 1;
    expect(await presence.get(key)).toBeUndefined();
  });

  it('counts the TTL from its own first sighting: it never answers "expired" early', async () => {
    const key = freshKey();
    await writer().set(key, '1', 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // expired in real time
    const { presence, clock } = reader(); // a reader that never saw it before
    expect(await presence.get(key)).toBe('1');
    clock.now += 999;
    expect(await presence.get(key)).toBe('1');
    clock.now += 1;
    expect(await presence.get(key)).toBeUndefined();
  });

  it("never reads the writer's clock: a beat stamped a day in the past still reads alive", async () => {
    const key = freshKey();
    const dayAgo = Math.floor(Date.now() / 1000) - 86_400;
    await direct.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: {
          pk: { S: key },
          value: { S: '1' },
          beat: { S: 'beat-from-a-slow-clock' },
          ttlSeconds: { N: '10' },
          [PRESENCE_EXPIRY_ATTRIBUTE]: { N: String(dayAgo) },
        },
      }),
    );
    expect(await reader().presence.get(key)).toBe('1');
  });

  it('writes a beat id per set and a cleanup time far past the TTL', async () => {
    const key = freshKey();
    const presence = writer();
    const beatOf = async () => {
      const { Item } = await direct.send(
        new GetItemCommand({
          TableName: table.tableName,
          Key: { pk: { S: key } },
          ConsistentRead: true,
        }),
      );
      return Item;
    };
    await presence.set(key, 'v', 10);
    const first = await beatOf();
    await presence.set(key, 'v', 10);
    const second = await beatOf();
    expect(second?.beat?.S).not.toBe(first?.beat?.S);
    expect(second?.value).toEqual({ S: 'v' });
    expect(second?.ttlSeconds).toEqual({ N: '10' });
    const cleanupAt = Number(second?.[PRESENCE_EXPIRY_ATTRIBUTE]?.N);
    expect(cleanupAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 86_400);
  });

  it('refuses to write a beat over a record of a store on the same table, leaving it as it was', async () => {
    const store = new DynamoStore({ client: direct, tableName: table.tableName });
    const key = `PlayerData/${freshKey()}`;
    await store.update(key, () => ({ coins: 5 }));
    const raw = () =>
      direct.send(
        new GetItemCommand({
          TableName: table.tableName,
          Key: { pk: { S: key } },
          ConsistentRead: true,
        }),
      );
    const before = (await raw()).Item;
    const failure = await writer()
      .set(key, 'server-a', 10)
      .catch((error: unknown) => error);
    expect(DataDriverError.is(failure, ErrorCode.InvalidRecord)).toBe(true);
    expect((await raw()).Item).toEqual(before);
    expect(await store.get(key)).toEqual({ coins: 5 });
  });

  it('refuses to write a beat over an item that is neither a beat nor a record', async () => {
    const key = freshKey();
    const item = { pk: { S: key }, other: { S: 'x' } };
    await direct.send(new PutItemCommand({ TableName: table.tableName, Item: item }));
    const failure = await writer()
      .set(key, 'v', 10)
      .catch((error: unknown) => error);
    expect(DataDriverError.is(failure, ErrorCode.InvalidRecord)).toBe(true);
    const { Item } = await direct.send(
      new GetItemCommand({ TableName: table.tableName, Key: { pk: { S: key } } }),
    );
    expect(Item).toEqual(item);
  });

  it('rejects (the caller\'s "unknown") on an item that is not a beat, rather than answer', async () => {
    const key = freshKey();
    await direct.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: { pk: { S: key }, other: { S: 'x' } },
      }),
    );
    const failure = await reader()
      .presence.get(key)
      .catch((error: unknown) => error);
    expect(DataDriverError.is(failure, ErrorCode.InvalidRecord)).toBe(true);
  });
});
