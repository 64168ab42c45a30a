import { type DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ErrorCode, type StoreRecord } from '@datadriver/core/ports';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoStore, MAX_ITEM_BYTES } from '../src/index.js';
import { freshTable, makeClient, rawItem, rawRecord, rivalWrite } from './support/dynamo-client.js';
import { failureOf } from './support/failure-of.js';
import { type HttpFaultProxy, startHttpFaultProxy, throttled } from './support/http-fault-proxy.js';

let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;
let proxy: HttpFaultProxy;
const clients: DynamoDBClient[] = [];
let keys = 0;
const freshKey = (name: string) => `store-test/${name}/${++keys}`;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'store');
  proxy = await startHttpFaultProxy(inject('dynamoEndpoint'));
});

afterAll(async () => {
  await table?.drop();
  await proxy?.close();
  for (const client of [direct, ...clients]) client?.destroy();
});

/** A store whose calls pass through the fault proxy; `maxAttempts` is the SDK's own. */
/** A transform that writes `next(n)`, noting the `n` of each record it runs on (in `seen`). */
function watched(next: (n: number | undefined) => StoreRecord | null | undefined) {
  const seen: unknown[] = [];
  const transform = (current: StoreRecord | undefined) => {
    seen.push(current?.n);
    return next(current?.n as number | undefined);
  };
  return { seen, transform };
}

function storeViaProxy(
  options: { maxAttempts?: number; conflictRetries?: number; throttleRetries?: number } = {},
) {
  const client = makeClient(proxy.endpoint, { maxAttempts: options.maxAttempts ?? 1 });
  clients.push(client);
  const logger = recordingLogger();
  const store = new DynamoStore({ client, tableName: table.tableName, logger, ...options });
  return { store, logger };
}

function directStore(options: { keyAttribute?: string; tableName?: string } = {}) {
  return new DynamoStore({ client: direct, tableName: table.tableName, ...options });
}

describe('the item layout', () => {
  it('stores one item per key: the key, the record as a JSON string, and a fresh revision per write (a per-process prefix and a counter)', async () => {
    const key = freshKey('layout');
    const store = directStore();
    await store.update(key, () => ({ data: { coins: 1 }, meta: { version: 1 } }));
    const first = await rawItem(direct, table.tableName, key);
    expect(Object.keys(first ?? {}).sort()).toEqual(['pk', 'record', 'revision']);
    expect(first?.pk).toEqual({ S: key });
    expect(first?.record).toEqual({ S: '{"data":{"coins":1},"meta":{"version":1}}' });
    await store.update(key, (current) => ({ ...current, meta: { version: 2 } }));
    const second = await rawItem(direct, table.tableName, key);
    expect(second?.revision?.S).toMatch(/^[A-Za-z0-9_-]{12}\.[0-9a-z]{11}$/);
    expect(second?.revision?.S).not.toBe(first?.revision?.S);
  });

  it('uses the configured key attribute', async () => {
    const custom = await freshTable(direct, 'custom-key', 'playerKey');
    try {
      const store = new DynamoStore({
        client: direct,
        tableName: custom.tableName,
        keyAttribute: 'playerKey',
      });
      await store.update('p1', () => ({ n: 1 }));
      expect(await rawRecord(direct, custom.tableName, 'p1', 'playerKey')).toEqual({ n: 1 });
      expect(await store.get('p1')).toEqual({ n: 1 });
    } finally {
      await custom.drop();
    }
  });

  it('updates an item written by hand without a revision, and gives it one', async () => {
    const key = freshKey('hand-made');
    await direct.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: { pk: { S: key }, record: { S: '{"n":41}' } },
      }),
    );
    const result = await directStore().update(key, (current) => ({
      n: (current?.n as number) + 1,
    }));
    expect(result?.record).toEqual({ n: 42 });
    expect((await rawItem(direct, table.tableName, key))?.revision?.S).toBeDefined();
  });

  it('refuses an item that holds no JSON object as Data.InvalidRecord, and leaves it untouched', async () => {
    const key = freshKey('foreign');
    const foreign = { pk: { S: key }, record: { S: 'not json' }, other: { N: '7' } };
    await direct.send(new PutItemCommand({ TableName: table.tableName, Item: foreign }));
    let ran = false;
    const failure = await failureOf(
      directStore().update(key, () => {
        ran = true;
        return { n: 1 };
      }),
    );
    expect(failure.code).toBe(ErrorCode.InvalidRecord);
    expect(failure.message).toContain(key);
    expect(ran).toBe(false);
    expect(await rawItem(direct, table.tableName, key)).toEqual(foreign);
  });
});

describe('the 400 KB limit', () => {
  // Item bytes: "pk" + key, "record" + JSON, "revision" + a 24-character id.
  const overhead = (key: string) => 2 + Buffer.byteLength(key) + 6 + 8 + 24;
  /** A record whose item is exactly `bytes` long, padded with 4-byte characters and ASCII. */
  function recordOfItemBytes(key: string, bytes: number): StoreRecord {
    const jsonBudget = bytes - overhead(key) - '{"pad":""}'.length;
    const emoji = '🎮'.repeat(Math.floor(jsonBudget / 8));
    const rest = jsonBudget - Buffer.byteLength(emoji);
    return { pad: emoji + 'x'.repeat(rest) };
  }

  it('writes an item of exactly 400 KB, counted in UTF-8 bytes as DynamoDB counts it', async () => {
    const key = freshKey('exactly-400kb');
    const record = recordOfItemBytes(key, MAX_ITEM_BYTES);
    expect((await directStore().update(key, () => record))?.record).toEqual(record);
    expect(await rawRecord(direct, table.tableName, key)).toEqual(record);
  });

  it('refuses one byte more with Data.TooLarge naming the key and size, before sending anything', async () => {
    const key = freshKey('over-400kb');
    const { store } = storeViaProxy();
    await store.update(key, () => ({ n: 1 }));
    const sentBefore = proxy.seen.length;
    const failure = await failureOf(
      store.update(key, () => recordOfItemBytes(key, MAX_ITEM_BYTES + 1)),
    );
    expect(failure.code).toBe(ErrorCode.TooLarge);
    expect(failure.message).toContain(key);
    expect(failure.message).toContain(`${MAX_ITEM_BYTES + 1} bytes`);
    expect(failure.details).toMatchObject({ key, bytes: MAX_ITEM_BYTES + 1 });
    expect(proxy.seen.slice(sentBefore)).toEqual(['GetItem']); // read, never written
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 1 });
  });

  it('agrees with DynamoDB: DynamoDB itself refuses that item, and its refusal maps to Data.TooLarge', async () => {
    const key = freshKey('dynamo-refuses');
    const json = JSON.stringify(recordOfItemBytes(key, MAX_ITEM_BYTES + 1));
    const item = { pk: { S: key }, record: { S: json }, revision: { S: 'r'.repeat(36) } };
    const refusal = await direct
      .send(new PutItemCommand({ TableName: table.tableName, Item: item }))
      .catch((error: unknown) => error);
    expect((refusal as Error).name).toBe('ValidationException');
    const { classifyDynamoError } = await import('../src/index.js');
    expect(classifyDynamoError(refusal)).toBe('too-large');
  });
});

describe('conditional writes', () => {
  it('re-runs the transform when a rival write lands between its read and its write', async () => {
    const key = freshKey('rival');
    const { store, logger } = storeViaProxy();
    await store.update(key, () => ({ n: 0 }));
    proxy.inject('PutItem', {
      kind: 'race',
      rival: () => rivalWrite(direct, table.tableName, key, { n: 100 }),
    });
    const { seen, transform } = watched((n) => ({ n: n! + 1 }));
    const result = await store.update(key, transform);
    expect(seen).toEqual([0, 100]);
    expect(result?.record).toEqual({ n: 101 });
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 101 });
    expect(logger.lines.filter((line) => line.level === 'debug')).toHaveLength(1);
  });

  it('rejects with Data.Conflict after conflictRetries re-runs, leaving the rival write in place', async () => {
    const key = freshKey('conflict');
    const { store, logger } = storeViaProxy({ conflictRetries: 2 });
    await store.update(key, () => ({ n: 0 }));
    let rivals = 0;
    proxy.inject(
      'PutItem',
      {
        kind: 'race',
        rival: () => rivalWrite(direct, table.tableName, key, { n: 100 + ++rivals }),
      },
      3,
    );
    let runs = 0;
    const failure = await failureOf(
      store.update(key, () => {
        runs += 1;
        return { n: -1 };
      }),
    );
    expect(failure.code).toBe(ErrorCode.Conflict);
    expect((failure.cause as Error).name).toBe('ConditionalCheckFailedException');
    expect(runs).toBe(3);
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 103 });
    expect(logger.lines.filter((line) => line.level === 'debug')).toHaveLength(2);
  });

  it('reads again after a conflict that carries no item (another transaction holds it), and does not take the record for gone', async () => {
    const key = freshKey('transaction-conflict');
    const { store } = storeViaProxy();
    const first = await store.update(key, () => ({ n: 1 }));
    proxy.inject('PutItem', {
      kind: 'error',
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
      message: 'Transaction is ongoing for the item',
    });
    const sentBefore = proxy.seen.length;
    // A holder's save: it writes nothing on a record that is gone.
    const { seen, transform } = watched((n) => (n === undefined ? undefined : { n: n + 1 }));
    const result = await store.update(key, transform, { expected: first });
    expect(seen).toEqual([1, 1]);
    expect(proxy.seen.slice(sentBefore)).toEqual(['PutItem', 'GetItem', 'PutItem']);
    expect(result?.record).toEqual({ n: 2 });
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 2 });
  });

  it('deletes only the record it read: a rival write in between is re-read, not deleted', async () => {
    const key = freshKey('delete');
    const { store } = storeViaProxy();
    await store.update(key, () => ({ n: 1 }));
    proxy.inject('DeleteItem', {
      kind: 'race',
      rival: () => rivalWrite(direct, table.tableName, key, { n: 2 }),
    });
    const { seen, transform } = watched((n) => (n === 1 ? null : undefined));
    const result = await store.update(key, transform);
    expect(seen).toEqual([1, 2]);
    expect(result?.record).toEqual({ n: 2 });
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 2 });
  });

  it.each([
    ['creating', undefined],
    ['updating', { n: 5 }],
  ])(
    'recognises its own write when %s, if the SDK resends it after a lost response',
    async (_, start) => {
      const key = freshKey('lost-response');
      const { store } = storeViaProxy({ maxAttempts: 2 });
      if (start) await rivalWrite(direct, table.tableName, key, start);
      proxy.inject('PutItem', { kind: 'lose-response' });
      const sentBefore = proxy.seen.length;
      let runs = 0;
      const result = await store.update(key, (current) => {
        runs += 1;
        return { n: ((current?.n as number | undefined) ?? 0) + 1 };
      });
      const expected = { n: (start?.n ?? 0) + 1 };
      // The SDK's resend failed its condition against our own landed write, which we recognise:
      // no second run of the transform, no double increment.
      expect(proxy.seen.slice(sentBefore)).toEqual(['GetItem', 'PutItem', 'PutItem']);
      expect(runs).toBe(1);
      expect(result?.record).toEqual(expected);
      expect(await rawRecord(direct, table.tableName, key)).toEqual(expected);
    },
  );
});

describe('snapshots: what a write sends', () => {
  it('a write given its last snapshot is one PutItem, with no read, and resolves with the next', async () => {
    const key = freshKey('snapshot-put');
    const { store } = storeViaProxy();
    let snapshot = await store.update(key, () => ({ n: 1 }));
    for (const n of [2, 3]) {
      const sentBefore = proxy.seen.length;
      snapshot = await store.update(key, (current) => ({ n: (current?.n as number) + 1 }), {
        expected: snapshot!,
      });
      expect(proxy.seen.slice(sentBefore)).toEqual(['PutItem']);
      expect(snapshot?.record).toEqual({ n });
      expect(await rawRecord(direct, table.tableName, key)).toEqual({ n });
    }
  });

  it('a moved revision is answered with the item stored now (ALL_OLD): two PutItems, no read', async () => {
    const key = freshKey('snapshot-moved');
    const { store, logger } = storeViaProxy();
    const stale = await store.update(key, () => ({ n: 1 }));
    await rivalWrite(direct, table.tableName, key, { n: 50 });
    const sentBefore = proxy.seen.length;
    const { seen, transform } = watched((n) => ({ n: n! + 1 }));
    const result = await store.update(key, transform, { expected: stale! });
    expect(proxy.seen.slice(sentBefore)).toEqual(['PutItem', 'PutItem']);
    expect(seen).toEqual([1, 50]);
    expect(result?.record).toEqual({ n: 51 });
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 51 });
    expect(logger.lines.filter((line) => line.level === 'debug')).toHaveLength(1);
  });

  it('a write of nothing on a snapshot reads to confirm it: one GetItem, no write', async () => {
    const key = freshKey('snapshot-nothing');
    const { store } = storeViaProxy();
    const snapshot = await store.update(key, () => ({ n: 1 }));
    const sentBefore = proxy.seen.length;
    const result = await store.update(key, () => undefined, { expected: snapshot! });
    expect(proxy.seen.slice(sentBefore)).toEqual(['GetItem']);
    expect(result).toEqual(snapshot);
  });
});

describe('throttling', () => {
  it('retries a throttled write with backoff, warning each time', async () => {
    const key = freshKey('throttled-then-ok');
    const { store, logger } = storeViaProxy({ throttleRetries: 3 });
    proxy.inject('PutItem', throttled, 2);
    expect((await store.update(key, () => ({ n: 1 })))?.record).toEqual({ n: 1 });
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 1 });
    const warnings = logger.lines
      .filter((line) => line.level === 'warn')
      .map((line) => line.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      new RegExp(`^DynamoDB throttled the write of ${key} in table .*; retry 1 of 3`),
    );
  });

  it('rejects with Data.Throttled once the retries are spent, having written nothing', async () => {
    const key = freshKey('throttled');
    const { store } = storeViaProxy({ throttleRetries: 2 });
    await store.update(key, () => ({ n: 1 }));
    proxy.inject('PutItem', throttled, 3);
    const sentBefore = proxy.seen.length;
    const failure = await failureOf(store.update(key, () => ({ n: 2 })));
    expect(failure.code).toBe(ErrorCode.Throttled);
    expect((failure.cause as Error).name).toBe('ProvisionedThroughputExceededException');
    expect(proxy.seen.slice(sentBefore)).toEqual(['GetItem', 'PutItem', 'PutItem', 'PutItem']);
    expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 1 });
  });

  it('retries a throttled read too', async () => {
    const key = freshKey('throttled-read');
    const { store, logger } = storeViaProxy({ throttleRetries: 1 });
    proxy.inject('GetItem', throttled, 1);
    await expect(store.get(key)).resolves.toBeUndefined();
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('warns on the console when no logger is given', async () => {
    const key = freshKey('throttled-console');
    const client = makeClient(proxy.endpoint, { maxAttempts: 1 });
    clients.push(client);
    const store = new DynamoStore({ client, tableName: table.tableName, throttleRetries: 1 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      proxy.inject('GetItem', throttled, 1);
      await expect(store.get(key)).resolves.toBeUndefined();
      expect(warn.mock.calls).toEqual([
        [
          expect.stringMatching(
            new RegExp(
              `^\\[DataDriver dynamodb\\] DynamoDB throttled the read of ${key} in table .*; retry 1 of 1`,
            ),
          ),
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('bad input and configuration', () => {
  it('refuses a key DynamoDB cannot store with Data.InvalidArgument', async () => {
    const store = directStore();
    expect((await failureOf(store.get(''))).code).toBe(ErrorCode.InvalidArgument);
    expect((await failureOf(store.update('k'.repeat(2049), () => ({ n: 1 })))).code).toBe(
      ErrorCode.InvalidArgument,
    );
  });

  it.each([
    [{ tableName: 'ab' }, /tableName/],
    [{ tableName: 'has space' }, /tableName/],
    [{ keyAttribute: '' }, /keyAttribute/],
    [{ conflictRetries: -1 }, /conflictRetries/],
    [{ throttleRetries: 1.5 }, /throttleRetries/],
  ])('refuses options %o with Data.InvalidConfig at construction', (options, message) => {
    const construct = () =>
      new DynamoStore({ client: direct, tableName: 'valid-name', ...options });
    expect(construct).toThrow(message);
    expect(() => construct()).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
  });
});
