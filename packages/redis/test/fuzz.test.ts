import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fuzzSuite } from '@datadriver/testkit';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { Clients, redisUrl, uniquePrefix } from './support/redis.js';

fuzzSuite('Redis', async () => {
  const clients = new Clients();
  const client = await clients.open(redisUrl());
  const prefix = uniquePrefix('fuzz');
  const store = new RedisStore({ client, prefix });
  // The bus and presence apart from the store, so the snapshot holds records only.
  const busPrefix = uniquePrefix('fuzzbus');
  const messenger = new RedisMessenger({ client, prefix: busPrefix });
  const presence = new RedisPresence({ client, prefix: busPrefix });
  return {
    store,
    readJson: async (key) => (await client.hget(store.keyOf(key), 'record')) ?? undefined,
    writeJson: async (key, json) => {
      await client.hset(store.keyOf(key), 'version', randomUUID(), 'record', json);
    },
    rawKeyOf: (key) => store.keyOf(key),
    snapshot: async () => {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, page] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...page);
      } while (cursor !== '0');
      // One round trip for every value: a long run holds thousands of keys.
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.dumpBuffer(key);
      const dumps = (await pipeline.exec()) ?? [];
      const values = new Map<string, string>();
      keys.forEach((key, index) => {
        const dump = dumps[index]?.[1];
        if (Buffer.isBuffer(dump)) values.set(key, dump.toString('hex'));
      });
      return values;
    },
    bus: {
      messenger,
      presence,
      publishRaw: async (topic, payload) => {
        await client.publish(messenger.channelOf(topic), payload);
      },
      settle: () => sleep(100),
    },
    close: async () => {
      await messenger.close();
      await clients.quitAll();
    },
  };
});
