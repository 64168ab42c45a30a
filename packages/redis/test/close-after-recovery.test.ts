/**
 * A driver whose load recovered a trade, closed: once `close()` resolves it writes nothing
 * more. Server A dies right after committing a trade (core's fault decorator stalls its store);
 * B recovers both players over a store as slow as DynamoDB Local (50 ms a call), then closes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DataDriver, type Logger, type Store } from '@datadriver/core';
import { FaultyStore } from '@datadriver/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('close after a recovering load, on Redis', () => {
  const clients = new Clients();
  afterAll(() => clients.quitAll());

  it('once close() resolved, the driver writes nothing more to the store', async () => {
    const store = new RedisStore({
      client: await clients.open(redisUrl()),
      prefix: uniquePrefix('closed'),
    });
    const options = {
      name: 'PlayerData',
      defaults: { coins: 0 },
      handoff: false,
      logger: quiet,
      lockTtlSeconds: 1,
      lockSkewSeconds: 0.2,
      autosaveSeconds: 0.5,
      lockWaitSeconds: 5,
    } as const;
    const connection = new FaultyStore(store);
    const a = new DataDriver<{ coins: number }>({ ...options, store: connection, jobId: 'A' });
    const p = await a.load('p');
    const q = await a.load('q');
    const commit = connection.update.bind(connection);
    connection.update = async (key, transform, updateOptions) => {
      const result = await commit(key, transform, updateOptions);
      if (key.includes('#trade/') && result?.record.state === 'committed') {
        connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      }
      return result;
    };
    void a.trade(p, q, (x, y) => {
      x.coins -= 1;
      y.coins += 1;
    });
    let closed = false;
    const lateWrites: string[] = [];
    const slow: Store = {
      specificationVersion: 'v2',
      get: async (key) => {
        await sleep(50);
        return store.get(key);
      },
      update: async (key, transform, updateOptions) => {
        await sleep(50);
        const result = await store.update(key, transform, updateOptions);
        if (closed) lateWrites.push(key);
        return result;
      },
    };
    const b = new DataDriver<{ coins: number }>({ ...options, store: slow, jobId: 'B' });
    try {
      expect((await b.load('p')).data).toEqual({ coins: -1 });
      expect((await b.load('q')).data).toEqual({ coins: 1 });
    } finally {
      await b.close();
      closed = true;
    }
    await sleep(500);
    expect(lateWrites).toEqual([]);
    connection.faults.clear();
    await a.close();
  });
});
