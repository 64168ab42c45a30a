/**
 * The driver's `schema` on a real redis-server (issue 19, part 3), with zod, valibot and
 * arktype: a stored record that fails is refused with Data.InvalidData naming its paths and its
 * hash left byte for byte as it was (no lock written); a save that fails writes nothing and the
 * profile stays active; the next valid save lands. Records are written and read past the
 * adapter.
 */
import { randomUUID } from 'node:crypto';
import { DataDriver, type DataSchema, ErrorCode, type Logger } from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import { type } from 'arktype';
import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

interface Player {
  coins: number;
  items: Array<{ id: string; count: number }>;
}

const SCHEMAS: ReadonlyArray<readonly [string, DataSchema<Player>]> = [
  [
    'zod',
    z.object({
      coins: z.number().int().nonnegative(),
      items: z.array(z.object({ id: z.string(), count: z.number().int().positive() })),
    }),
  ],
  [
    'valibot',
    v.object({
      coins: v.pipe(v.number(), v.integer(), v.minValue(0)),
      items: v.array(v.object({ id: v.string(), count: v.pipe(v.number(), v.minValue(1)) })),
    }),
  ],
  [
    'arktype',
    type({
      coins: 'number.integer >= 0',
      items: type({ id: 'string', count: 'number.integer > 0' }).array(),
    }),
  ],
];

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe.each(SCHEMAS)('a %s schema on Redis', (_library, schema) => {
  const clients = new Clients();
  let client: Redis;
  let store: RedisStore;

  beforeAll(async () => {
    client = await clients.open(redisUrl());
    store = new RedisStore({ client, prefix: uniquePrefix('schema') });
  });
  afterAll(() => clients.quitAll());

  const driver = (jobId: string) =>
    new DataDriver({
      name: 'PlayerData',
      schema,
      defaults: { coins: 0, items: [] },
      store,
      jobId,
      handoff: false,
      logger: quiet,
    });
  const hashOf = (key: string) => store.keyOf(`PlayerData/${key}`);
  const write = (key: string, json: string) =>
    client.hset(hashOf(key), 'version', randomUUID(), 'record', json);

  it('refuses a stored record that fails, naming its paths, and leaves its hash byte for byte untouched', async () => {
    const key = `bad-${randomUUID()}`;
    await write(
      key,
      '{"data":{"coins":-3,"items":[{"id":"sword","count":0}]},"meta":{"version":4}}',
    );
    const before = await client.hgetall(hashOf(key));
    const error = await driver(`A-${key}`)
      .load(key)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidData,
      details: { key, paths: ['data.coins', 'data.items[0].count'] },
    });
    expect((error as Error).message).toContain('the record was left untouched');
    expect(await client.hgetall(hashOf(key))).toEqual(before);
  });

  it('kicks an attached player with the load-failed message, writing nothing', async () => {
    const key = `kick-${randomUUID()}`;
    await write(key, '{"data":{"coins":"many","items":[]},"meta":{"version":1}}');
    const before = await client.hgetall(hashOf(key));
    const a = driver(`A-${key}`);
    const host = new MemoryHost(`A-${key}`);
    a.attach(host);
    const kicked = new Promise<string>((resolve) => {
      a.on((event) => {
        if (event.type === 'profile.kicked') resolve(event.message);
      });
    });
    host.join(key);
    expect(await kicked).toBe('Your data could not be loaded. Please rejoin.');
    expect(await client.hgetall(hashOf(key))).toEqual(before);
    await a.close();
  });

  it('loads a record that matches; a save that fails writes nothing and keeps the profile active; the next valid save lands', async () => {
    const key = `save-${randomUUID()}`;
    await write(key, '{"data":{"coins":5,"items":[]},"meta":{"version":1}}');
    const a = driver(`A-${key}`);
    const profile = await a.load(key);
    expect(profile.data).toEqual({ coins: 5, items: [] });
    const before = await client.hgetall(hashOf(key));
    profile.data.items.push({ id: 'shield', count: -1 });
    await expect(profile.save()).rejects.toMatchObject({
      code: ErrorCode.InvalidData,
      details: { paths: ['data.items[0].count'] },
    });
    expect(await client.hgetall(hashOf(key))).toEqual(before);
    expect(profile.active).toBe(true);
    profile.data.items[0]!.count = 2;
    await profile.save();
    const record = JSON.parse((await client.hget(hashOf(key), 'record')) ?? '{}');
    expect(record.data).toEqual({ coins: 5, items: [{ id: 'shield', count: 2 }] });
    expect(record.meta.lock.token).toBe(profile.lockToken);
    await profile.release();
  });
});
