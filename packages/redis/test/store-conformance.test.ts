import { storeConformance } from '@datadriver/testkit';
import { RedisStore } from '../src/index.js';
import { recordKey } from '../src/keys.js';
import { Clients, redisProxy, redisUrl, throughProxy, uniquePrefix } from './support/redis.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

storeConformance(
  'Redis',
  async () => {
    const url = redisUrl();
    const proxy = await redisProxy(url);
    const clients = new Clients();
    const reader = await clients.open(url);
    const prefix = uniquePrefix('store');
    return {
      connect: async () => {
        const client = await clients.open(throughProxy(url, proxy));
        return new RedisStore({ client, prefix, versions: { keep: KEEP } });
      },
      read: async (key) => {
        const json = await reader.hget(recordKey(prefix, key), 'record');
        return json === null ? undefined : JSON.parse(json);
      },
      outage: proxy,
      close: async () => {
        await clients.quitAll();
        await proxy.close();
      },
    };
  },
  { versions: { keep: KEEP }, scan: true },
);
