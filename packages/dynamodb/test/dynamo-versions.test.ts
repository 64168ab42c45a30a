/**
 * DynamoStore's versions on DynamoDB Local, past what the testkit's conformance checks: the
 * items in the versions table, the transaction that writes them with the record, the stamps
 * when clocks disagree, retention in storage as well as on reads, and failures.
 */
import {
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { ErrorCode, type StoreRecord } from '@datadriver/core/ports';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoStore, type DynamoStoreOptions, ensureTable } from '../src/index.js';
import {
  freshTable,
  makeClient,
  rawItem,
  rawRecord,
  rivalWrite,
  uniqueTableName,
} from './support/dynamo-client.js';
import { failureOf } from './support/failure-of.js';
import { type HttpFaultProxy, startHttpFaultProxy, throttled } from './support/http-fault-proxy.js';

let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;
let versionsTable: string;
let proxy: HttpFaultProxy;
const clients: DynamoDBClient[] = [];
let keys = 0;
const freshKey = (name: string) => `versions-test/${name}/${++keys}`;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'versions', 'pk', { versions: true });
  versionsTable = table.versionsTableName!;
  proxy = await startHttpFaultProxy(inject('dynamoEndpoint'));
});

afterAll(async () => {
  await table?.drop();
  await proxy?.close();
  for (const client of [direct, ...clients]) client?.destroy();
});

/** A clock the test sets. */
function manualClock(start = Date.now()) {
  let time = start;
  return {
    now: () => time,
    set: (next: number) => {
      time = next;
    },
  };
}

type Options = Partial<Omit<DynamoStoreOptions, 'client' | 'tableName' | 'versions'>> & {
  readonly keep?: number;
  readonly maxAgeSeconds?: number;
  readonly maxAttempts?: number;
  readonly viaProxy?: boolean;
};

function store(options: Options = {}) {
  const { keep, maxAgeSeconds, maxAttempts, viaProxy, ...rest } = options;
  let client = direct;
  if (viaProxy) {
    client = makeClient(proxy.endpoint, { maxAttempts: maxAttempts ?? 1 });
    clients.push(client);
  }
  const versions = {
    tableName: versionsTable,
    ...(keep !== undefined && { keep }),
    ...(maxAgeSeconds !== undefined && { maxAgeSeconds }),
  };
  return new DynamoStore({ client, tableName: table.tableName, versions, ...rest });
}

/** The version items of `key`, oldest first, read past the adapter. */
async function rawVersions(key: string) {
  const output = await direct.send(
    new QueryCommand({
      TableName: versionsTable,
      KeyConditionExpression: 'pk = :key',
      ExpressionAttributeValues: { ':key': { S: key } },
      ConsistentRead: true,
    }),
  );
  return (output.Items ?? []).map((item) => ({
    time: Number(item.time?.N),
    seq: Number(item.seq?.N),
    record: JSON.parse(item.record?.S ?? 'null') as StoreRecord,
    ...(item.expiresAt && { expiresAt: Number(item.expiresAt.N) }),
  }));
}

const increment = (current: StoreRecord | undefined) => ({
  n: ((current?.n as number | undefined) ?? 0) + 1,
});

describe('the versions table', () => {
  it('holds one item per kept version: key, time, seq and the record as written', async () => {
    const key = freshKey('layout');
    const clock = manualClock(1_800_000_000_000);
    const versioned = store({ clock });
    await versioned.update(key, () => ({ coins: 10 }), { keepVersion: true });
    clock.set(1_800_000_000_500);
    await versioned.update(key, () => ({ coins: 20 }), { keepVersion: true });
    await versioned.update(key, () => ({ coins: 21 }));
    expect(await rawVersions(key)).toEqual([
      { time: 1_800_000_000_000, seq: 1, record: { coins: 10 } },
      { time: 1_800_000_000_500, seq: 2, record: { coins: 20 } },
    ]);
    // The record item remembers its newest version, through writes that keep none.
    const item = await rawItem(direct, table.tableName, key);
    expect(item?.versionTime).toEqual({ S: '1800000000500' });
    expect(item?.versionSeq).toEqual({ S: '2' });
    expect(await versioned.versions?.list(key)).toEqual([
      { id: '1800000000500', time: 1_800_000_000_500 },
      { id: '1800000000000', time: 1_800_000_000_000 },
    ]);
  });

  it('gives a version an expiry second for TTL when there is an age limit', async () => {
    const key = freshKey('ttl');
    const clock = manualClock(1_800_000_000_001);
    await store({ clock, maxAgeSeconds: 60 }).update(key, () => ({ n: 1 }), { keepVersion: true });
    expect(await rawVersions(key)).toEqual([
      { time: 1_800_000_000_001, seq: 1, record: { n: 1 }, expiresAt: 1_800_000_061 },
    ]);
  });

  it('keeps none for a delete, nor for a write without keepVersion, nor on a store without versions', async () => {
    const key = freshKey('none');
    await store().update(key, () => ({ n: 1 }));
    await store().update(key, () => null, { keepVersion: true });
    const plain = new DynamoStore({ client: direct, tableName: table.tableName });
    expect(plain.versions).toBeUndefined();
    await plain.update(key, () => ({ n: 2 }), { keepVersion: true });
    expect(await rawVersions(key)).toEqual([]);
  });
});

describe('stamps on the writers’ clocks', () => {
  it('stamps a version after the newest one even when its writer’s clock is behind', async () => {
    const key = freshKey('skew');
    const now = Date.now();
    const ahead = store({ clock: { now: () => now + 60_000 } });
    const behind = store({ clock: { now: () => now } });
    await ahead.update(key, () => ({ by: 'ahead' }), { keepVersion: true });
    await behind.update(key, () => ({ by: 'behind' }), { keepVersion: true });
    const versions = await behind.versions!.list(key);
    // Commit order, one ms apart: the server behind never stamps before what it replaced.
    expect(versions.map((version) => version.time)).toEqual([now + 60_001, now + 60_000]);
    expect(await behind.versions!.read(key, versions[0]!.id)).toEqual({ by: 'behind' });
  });

  it('continues a key’s history after its record was deleted and written again', async () => {
    const key = freshKey('after-delete');
    const clock = manualClock(1_800_000_000_000);
    const versioned = store({ clock });
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    await versioned.update(key, () => null);
    clock.set(1_700_000_000_000);
    await versioned.update(key, () => ({ n: 2 }), { keepVersion: true });
    expect(await rawVersions(key)).toEqual([
      { time: 1_800_000_000_000, seq: 1, record: { n: 1 } },
      { time: 1_800_000_000_001, seq: 2, record: { n: 2 } },
    ]);
  });
});

describe('retention', () => {
  it('trims the table to the newest `keep` after each write', async () => {
    const key = freshKey('count');
    const versioned = store({ keep: 3 });
    for (let n = 1; n <= 7; n++) await versioned.update(key, () => ({ n }), { keepVersion: true });
    expect((await rawVersions(key)).map((version) => [version.seq, version.record.n])).toEqual([
      [5, 5],
      [6, 6],
      [7, 7],
    ]);
  });

  it('applies the count on reads, before any write trims (a store with a smaller keep)', async () => {
    const key = freshKey('count-read');
    const wide = store({ keep: 10 });
    for (let n = 1; n <= 4; n++) await wide.update(key, () => ({ n }), { keepVersion: true });
    const all = await wide.versions!.list(key);
    const narrow = store({ keep: 2 });
    expect(await narrow.versions!.list(key)).toEqual(all.slice(0, 2));
    expect(await narrow.versions!.list(key, { before: all[2]!.time })).toEqual([]);
    expect(await narrow.versions!.read(key, all[2]!.id)).toBeUndefined();
    expect(await narrow.versions!.read(key, all[1]!.id)).toEqual({ n: 3 });
    expect(await rawVersions(key)).toHaveLength(4);
  });

  it('serves no version past its age, and the next write deletes it from the table', async () => {
    const key = freshKey('age');
    const clock = manualClock(1_800_000_000_000);
    const versioned = store({ clock, maxAgeSeconds: 10 });
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    clock.set(1_800_000_005_000);
    await versioned.update(key, () => ({ n: 2 }), { keepVersion: true });
    const [second, first] = await versioned.versions!.list(key);
    clock.set(1_800_000_010_000);
    // Exactly maxAgeSeconds old is still retained.
    expect(await versioned.versions!.list(key)).toEqual([second, first]);
    clock.set(1_800_000_010_001);
    expect(await versioned.versions!.list(key)).toEqual([second]);
    expect(await versioned.versions!.read(key, first!.id)).toBeUndefined();
    expect(await versioned.versions!.list(key, { after: 0 })).toEqual([second]);
    expect(await rawVersions(key)).toHaveLength(2);
    await versioned.update(key, () => ({ n: 3 }), { keepVersion: true });
    expect((await rawVersions(key)).map((version) => version.record)).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('warns, and still resolves the committed write, when trimming fails', async () => {
    const key = freshKey('trim-fails');
    const logger = recordingLogger();
    const versioned = store({ keep: 1, viaProxy: true, logger, throttleRetries: 0 });
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    // The record item now remembers its newest version, so the next write's only Query is the
    // trim's.
    proxy.inject('Query', throttled, 1);
    expect((await versioned.update(key, () => ({ n: 2 }), { keepVersion: true }))?.record).toEqual({
      n: 2,
    });
    expect(logger.lines.map((line) => line.level)).toEqual(['warn']);
    expect(logger.lines[0]!.message).toContain(`could not drop the old versions of ${key}`);
    expect(await versioned.versions!.list(key)).toHaveLength(1);
    expect(await rawVersions(key)).toHaveLength(2);
    await versioned.update(key, () => ({ n: 3 }), { keepVersion: true });
    expect((await rawVersions(key)).map((version) => version.record)).toEqual([{ n: 3 }]);
  });
});

describe('queries', () => {
  it('bounds by time inclusively, newest first, with a limit', async () => {
    const key = freshKey('query');
    const clock = manualClock(1_800_000_000_000);
    const versioned = store({ clock });
    for (const time of [1_800_000_000_000, 1_800_000_000_010, 1_800_000_000_020]) {
      clock.set(time);
      await versioned.update(key, () => ({ time }), { keepVersion: true });
    }
    const times = async (query: Parameters<NonNullable<DynamoStore['versions']>['list']>[1]) =>
      (await versioned.versions!.list(key, query)).map((version) => version.time);
    expect(await times({})).toEqual([1_800_000_000_020, 1_800_000_000_010, 1_800_000_000_000]);
    expect(await times({ before: 1_800_000_000_010 })).toEqual([
      1_800_000_000_010, 1_800_000_000_000,
    ]);
    expect(await times({ before: 1_800_000_000_019.9 })).toEqual([
      1_800_000_000_010, 1_800_000_000_000,
    ]);
    expect(await times({ after: 1_800_000_000_010 })).toEqual([
      1_800_000_000_020, 1_800_000_000_010,
    ]);
    expect(await times({ after: 1_800_000_000_000.1, limit: 1 })).toEqual([1_800_000_000_020]);
    expect(await times({ before: 1_800_000_000_015, after: 1_800_000_000_005 })).toEqual([
      1_800_000_000_010,
    ]);
    expect(await times({ before: 1_800_000_000_005, after: 1_800_000_000_015 })).toEqual([]);
    expect(
      await times({ before: Number.POSITIVE_INFINITY, after: Number.NEGATIVE_INFINITY }),
    ).toHaveLength(3);
    expect(await times({ before: Number.NEGATIVE_INFINITY })).toEqual([]);
    expect(await times({ after: Number.POSITIVE_INFINITY })).toEqual([]);
    expect(await times({ before: 1e300, after: -1e300 })).toHaveLength(3);
    expect(await times({ limit: 0 })).toEqual([]);
  });

  it('refuses a NaN bound, a bad limit or a bad key with Data.InvalidArgument', async () => {
    const versions = store().versions!;
    for (const call of [versions.list(''), versions.read('', '1'), versions.purge('')]) {
      expect((await failureOf(call)).code).toBe(ErrorCode.InvalidArgument);
    }
    for (const query of [
      { before: Number.NaN },
      { after: Number.NaN },
      { limit: -1 },
      { limit: 1.5 },
    ]) {
      expect((await failureOf(versions.list('k', query))).code).toBe(ErrorCode.InvalidArgument);
    }
  });

  it('reads an unknown or malformed id as not retained', async () => {
    const key = freshKey('ids');
    const versioned = store();
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    const [version] = await versioned.versions!.list(key);
    expect(await versioned.versions!.read(key, version!.id)).toEqual({ n: 1 });
    for (const id of ['1', 'not-a-time', '', '1e3', '-1', `0${version!.id}`, `${version!.id}.0`]) {
      expect(await versioned.versions!.read(key, id)).toBeUndefined();
    }
  });
});

describe('concurrent writers', () => {
  // 40 transactions contend for one key: about 20 s on DynamoDB Local, more on a loaded machine.
  it('keep one version per committed write, numbered and timed in commit order', async () => {
    const key = freshKey('concurrent');
    const writers = [1, 2, 3, 4].map(() => {
      const client = makeClient(inject('dynamoEndpoint'));
      clients.push(client);
      return new DynamoStore({
        client,
        tableName: table.tableName,
        versions: { tableName: versionsTable },
        conflictRetries: 100,
      });
    });
    await Promise.all(
      writers.flatMap((writer) =>
        Array.from({ length: 10 }, () => writer.update(key, increment, { keepVersion: true })),
      ),
    );
    const versions = await rawVersions(key);
    // Each increment's version holds the value it committed: 1 to 40, in seq and time order.
    expect(versions.map((version) => version.record.n)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
    expect(versions.map((version) => version.seq)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
    const times = versions.map((version) => version.time);
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
  }, 90_000);
});

describe('purge', () => {
  it('deletes every version, past any page or batch size', async () => {
    const key = freshKey('purge');
    const versioned = store();
    for (let n = 1; n <= 30; n++) await versioned.update(key, () => ({ n }), { keepVersion: true });
    await versioned.update(key, () => null);
    expect(await rawVersions(key)).toHaveLength(30);
    await versioned.versions!.purge(key);
    expect(await rawVersions(key)).toEqual([]);
    expect(await rawRecord(direct, table.tableName, key)).toBeUndefined();
    await versioned.versions!.purge(key);
  });
});

describe('one transaction for the record and its version', () => {
  it('keeps no version of a write that lost to a rival, and one of its re-run', async () => {
    const key = freshKey('race');
    const versioned = store({ viaProxy: true });
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    proxy.inject('TransactWriteItems', {
      kind: 'race',
      rival: () => rivalWrite(direct, table.tableName, key, { n: 100 }),
    });
    let runs = 0;
    const result = await versioned.update(
      key,
      (current) => {
        runs += 1;
        return increment(current);
      },
      { keepVersion: true },
    );
    expect(runs).toBe(2);
    expect(result?.record).toEqual({ n: 101 });
    expect((await rawVersions(key)).map((version) => version.record)).toEqual([
      { n: 1 },
      { n: 101 },
    ]);
  });

  it.each([
    ['another transaction holds the record', [{ Code: 'TransactionConflict' }, { Code: 'None' }]],
    [
      "the version's put failed its condition",
      [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    ],
  ])(
    'reads again after a cancelled transaction whose record action carries no item (%s), and does not take the record for gone',
    async (_, reasons) => {
      const key = freshKey('cancelled');
      const versioned = store({ viaProxy: true });
      const first = await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
      proxy.inject('TransactWriteItems', {
        kind: 'error',
        status: 400,
        type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
        fields: { CancellationReasons: reasons },
      });
      const seen: unknown[] = [];
      const result = await versioned.update(
        key,
        (current) => {
          seen.push(current?.n);
          return current === undefined ? undefined : increment(current);
        },
        { keepVersion: true, expected: first },
      );
      expect(seen).toEqual([1, 1]);
      expect(result?.record).toEqual({ n: 2 });
      expect(await rawRecord(direct, table.tableName, key)).toEqual({ n: 2 });
      expect((await rawVersions(key)).map((version) => version.record)).toEqual([
        { n: 1 },
        { n: 2 },
      ]);
    },
  );

  it('keeps one version of a write whose response was lost and which the SDK resent', async () => {
    const key = freshKey('lost-response');
    const versioned = store({ viaProxy: true, maxAttempts: 2 });
    await versioned.update(key, () => ({ n: 1 }), { keepVersion: true });
    proxy.inject('TransactWriteItems', { kind: 'lose-response' });
    const sentBefore = proxy.seen.length;
    let runs = 0;
    const result = await versioned.update(
      key,
      (current) => {
        runs += 1;
        return increment(current);
      },
      { keepVersion: true },
    );
    expect(proxy.seen.slice(sentBefore)).toEqual([
      'GetItem',
      'TransactWriteItems',
      'TransactWriteItems',
    ]);
    expect(runs).toBe(1);
    expect(result?.record).toEqual({ n: 2 });
    expect((await rawVersions(key)).map((version) => version.record)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('writes neither when the versions table is missing: Data.Misconfigured', async () => {
    const key = freshKey('no-versions-table');
    const broken = new DynamoStore({
      client: direct,
      tableName: table.tableName,
      versions: { tableName: 'no-such-versions-table' },
    });
    // A new record: the lookup of its newest version fails first.
    const lookup = await failureOf(broken.update(key, () => ({ n: 1 }), { keepVersion: true }));
    expect(lookup.code).toBe(ErrorCode.Misconfigured);
    expect(lookup.details).toMatchObject({ key, tableName: 'no-such-versions-table' });
    expect(lookup.message).toContain('ensureTable()');
    expect(await rawItem(direct, table.tableName, key)).toBeUndefined();
    // A record that remembers its newest version: the transaction itself fails, as a whole.
    await store().update(key, () => ({ n: 1 }), { keepVersion: true });
    const before = await rawItem(direct, table.tableName, key);
    const write = await failureOf(broken.update(key, () => ({ n: 2 }), { keepVersion: true }));
    expect(write.code).toBe(ErrorCode.Misconfigured);
    expect(write.details).toMatchObject({ key, tableName: table.tableName });
    expect(write.message).toContain('with its version in table no-such-versions-table');
    expect(await rawItem(direct, table.tableName, key)).toEqual(before);
  });

  it('writes neither when the record is too large for its version: Data.TooLarge', async () => {
    const key = freshKey('too-large');
    const failure = await failureOf(
      store().update(key, () => ({ blob: 'x'.repeat(400 * 1024) }), { keepVersion: true }),
    );
    expect(failure.code).toBe(ErrorCode.TooLarge);
    expect(failure.message).toContain(key);
    expect(await rawItem(direct, table.tableName, key)).toBeUndefined();
    expect(await rawVersions(key)).toEqual([]);
  });

  it('retries a throttled transaction, then reports Data.Throttled', async () => {
    const key = freshKey('throttled');
    const versioned = store({ viaProxy: true, throttleRetries: 1, logger: recordingLogger() });
    proxy.inject('TransactWriteItems', throttled, 1);
    expect((await versioned.update(key, () => ({ n: 1 }), { keepVersion: true }))?.record).toEqual({
      n: 1,
    });
    const cancelled = {
      kind: 'error',
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
      fields: {
        CancellationReasons: [
          { Code: 'None' },
          { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity.' },
        ],
      },
    } as const;
    proxy.inject('TransactWriteItems', cancelled, 2);
    const failure = await failureOf(versioned.update(key, () => ({ n: 2 }), { keepVersion: true }));
    expect(failure.code).toBe(ErrorCode.Throttled);
    expect((failure.cause as Error).name).toBe('TransactionCanceledException');
    expect((await rawVersions(key)).map((version) => version.record)).toEqual([{ n: 1 }]);
  });
});

describe('options and setup', () => {
  it.each([
    [{ keep: 0 }, 'versions.keep'],
    [{ keep: 1.5 }, 'versions.keep'],
    [{ maxAgeSeconds: 0 }, 'versions.maxAgeSeconds'],
    [{ maxAgeSeconds: Number.POSITIVE_INFINITY }, 'versions.maxAgeSeconds'],
    [{ tableName: 'x' }, 'versions.tableName'],
    [{ tableName: 'profiles' }, 'must differ'],
  ])('refuses versions %j with Data.InvalidConfig', (versions, message) => {
    const make = () => new DynamoStore({ client: direct, tableName: 'profiles', versions });
    expect(make).toThrow(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
    expect(make).toThrow(message);
  });

  it('ensureTable creates the versions table, with TTL on expiresAt, named after the store table by default', async () => {
    const tableName = uniqueTableName('ensure-versions');
    const versionsName = `${tableName}-versions`;
    try {
      const versions = { keep: 5 };
      expect(await ensureTable({ client: direct, tableName, versions })).toBe('created');
      const { Table } = await direct.send(new DescribeTableCommand({ TableName: versionsName }));
      expect(Table?.KeySchema).toEqual([
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'time', KeyType: 'RANGE' },
      ]);
      const ttl = await direct.send(new DescribeTimeToLiveCommand({ TableName: versionsName }));
      expect(ttl.TimeToLiveDescription).toEqual({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: 'expiresAt',
      });
      expect(await ensureTable({ client: direct, tableName, versions })).toBe('exists');
      const versioned = new DynamoStore({ client: direct, tableName, versions });
      await versioned.update('k', () => ({ n: 1 }), { keepVersion: true });
      expect(await versioned.versions?.list('k')).toHaveLength(1);
    } finally {
      for (const TableName of [tableName, versionsName]) {
        await direct.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
      }
    }
  });

  it('ensureTable refuses a versions table with another key schema as Data.Misconfigured', async () => {
    const tableName = uniqueTableName('ensure-versions-wrong');
    const versions = { tableName: uniqueTableName('wrong-versions') };
    try {
      await ensureTable({ client: direct, tableName: versions.tableName });
      const failure = await failureOf(ensureTable({ client: direct, tableName, versions }));
      expect(failure.code).toBe(ErrorCode.Misconfigured);
      expect(failure.message).toContain('a number sort key named time');
    } finally {
      for (const TableName of [tableName, versions.tableName]) {
        await direct.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
      }
    }
  });
});
