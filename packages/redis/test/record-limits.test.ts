/**
 * A record over the server's bulk limit, on a redis-server of its own whose
 * `proto-max-bulk-len` is set to Redis's smallest (1 MB): without core's check, such a write
 * makes Redis drop the connection, failing every other command on that client.
 */
import { type RedisBackend, startRedis } from '@datadriver/backends';
import { DataDriver, ErrorCode, type Profile } from '@datadriver/core';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_MAX_RECORD_BYTES, RedisStore } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';

type Bag = { coins: number; note?: string };

describe('RedisStore: records over the server bulk limit', () => {
  let server: RedisBackend;
  const clients = new Clients();
  let client: Redis;
  let drops = 0;

  beforeAll(async () => {
    // A server of our own even when REDIS_URL names one: its config is changed here.
    server = await startRedis({ env: { ...process.env, REDIS_URL: '' } });
    client = await clients.open(server.url);
    await client.config('SET', 'proto-max-bulk-len', String(1024 * 1024));
    client.on('close', () => {
      drops += 1;
    });
  });
  afterAll(async () => {
    await clients.quitAll();
    await server?.kill();
  });

  it('declares 512 KiB by default, half the smallest bulk limit a server accepts', () => {
    expect(REDIS_MAX_RECORD_BYTES).toBe(512 * 1024);
    expect(new RedisStore({ client }).maxRecordBytes).toBe(REDIS_MAX_RECORD_BYTES);
    expect(() => new RedisStore({ client, maxRecordBytes: -1 })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('a 2 MB record is refused with Data.TooLarge before it is sent; the other saves on the client land', async () => {
    const prefix = uniquePrefix('limits');
    const store = new RedisStore({ client, prefix });
    const driver = new DataDriver<Bag>({
      name: 'PlayerData',
      defaults: { coins: 0 },
      store,
      jobId: 'A',
      handoff: false,
    });
    const big = (await driver.load('big')) as Profile<Bag>;
    const others = await Promise.all(['s1', 's2', 's3'].map((key) => driver.load(key)));
    const before = await client.hget(store.keyOf('PlayerData/big'), 'record');
    big.data.note = 'x'.repeat(2 * 1024 * 1024);
    for (const [index, profile] of others.entries()) profile.data.coins = index + 1;
    const [refused, ...saved] = await Promise.allSettled([
      big.save(),
      ...others.map((profile) => profile.save()),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.TooLarge } });
    expect(saved.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(await client.hget(store.keyOf('PlayerData/big'), 'record')).toBe(before);
    for (const [index, key] of ['s1', 's2', 's3'].entries()) {
      const json = await client.hget(store.keyOf(`PlayerData/${key}`), 'record');
      expect(JSON.parse(json ?? '{}')).toMatchObject({ data: { coins: index + 1 } });
    }
    expect(drops).toBe(0);
    big.data.note = 'fits';
    await driver.close();
    expect(
      JSON.parse((await client.hget(store.keyOf('PlayerData/big'), 'record')) ?? '{}'),
    ).toMatchObject({
      data: { note: 'fits' },
    });
  });

  it('the premise: a store told a limit above the server one sends the record, and Redis drops the connection', async () => {
    const own = await clients.open(server.url);
    let closed = 0;
    own.on('close', () => {
      closed += 1;
    });
    const store = new RedisStore({
      client: own,
      prefix: uniquePrefix('over'),
      maxRecordBytes: 4 * 1024 * 1024,
    });
    const write = store.update('big', () => ({
      data: { note: 'x'.repeat(2 * 1024 * 1024) },
      meta: { version: 1 },
    }));
    await expect(write).rejects.toBeDefined();
    for (let waited = 0; closed === 0 && waited < 5_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(closed).toBeGreaterThan(0);
  });
});
