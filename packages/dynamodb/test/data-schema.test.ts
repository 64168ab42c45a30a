/**
 * The driver's `schema` on DynamoDB Local (issue 19, part 3), with zod, valibot and arktype: a
 * stored item whose record fails is refused with Data.InvalidData naming its paths and left byte
 * for byte as it was (record and revision: no lock written); a save that fails writes nothing
 * and the profile stays active; the next valid save lands. Items are written and read past the
 * adapter.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DataDriver, type DataSchema, ErrorCode, type Logger } from '@datadriver/core';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { DynamoStore } from '../src/index.js';
import { freshTable, makeClient, rawItem, rawRecord, rivalWrite } from './support/dynamo-client.js';

type Player = { coins: number; name: string };

const SCHEMAS: ReadonlyArray<readonly [string, DataSchema<Player>]> = [
  ['zod', z.object({ coins: z.number().nonnegative(), name: z.string().min(1) })],
  [
    'valibot',
    v.object({
      coins: v.pipe(v.number(), v.minValue(0)),
      name: v.pipe(v.string(), v.minLength(1)),
    }),
  ],
  ['arktype', type({ coins: 'number >= 0', name: 'string > 0' })],
];

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;
let store: DynamoStore;
let keys = 0;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'schema');
  store = new DynamoStore({ client: direct, tableName: table.tableName });
});

afterAll(async () => {
  await table?.drop();
  direct?.destroy();
});

function driverFor(schema: DataSchema<Player>) {
  keys += 1;
  return new DataDriver({
    name: 'PlayerData',
    schema,
    defaults: { coins: 0, name: 'new' },
    store,
    jobId: `schema-${keys}`,
    handoff: false,
    logger: quiet,
  });
}

describe.each(SCHEMAS)('a %s schema on DynamoDB', (_library, schema) => {
  it('refuses a stored record that fails, naming its paths, and leaves its item byte for byte untouched', async () => {
    const key = `bad-${keys}`;
    const record = { data: { coins: -1, name: '' }, meta: { version: 7 } };
    await rivalWrite(direct, table.tableName, `PlayerData/${key}`, record);
    const before = await rawItem(direct, table.tableName, `PlayerData/${key}`);
    const error = await driverFor(schema)
      .load(key)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { key, paths: ['data.coins', 'data.name'] },
    });
    expect((error as Error).message).toContain('the record was left untouched');
    expect(await rawItem(direct, table.tableName, `PlayerData/${key}`)).toEqual(before);
  });

  it('a save that fails writes nothing and keeps the profile active; the next valid save lands', async () => {
    const driver = driverFor(schema);
    const key = `save-${keys}`;
    const profile = await driver.load(key);
    expect(profile.data).toEqual({ coins: 0, name: 'new' });
    const before = await rawItem(direct, table.tableName, `PlayerData/${key}`);
    profile.data.name = '';
    await expect(profile.save()).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.name'] },
    });
    expect(await rawItem(direct, table.tableName, `PlayerData/${key}`)).toEqual(before);
    expect(profile.active).toBe(true);
    profile.data.name = 'Ada';
    await profile.save();
    const after = await rawRecord(direct, table.tableName, `PlayerData/${key}`);
    expect(after).toMatchObject({
      data: { coins: 0, name: 'Ada' },
      meta: { lock: { token: profile.lockToken } },
    });
    await profile.release();
  });
});
