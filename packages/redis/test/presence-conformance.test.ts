import { presenceConformance } from '@datadriver/testkit';
import { RedisPresence } from '../src/index.js';
import { Clients, redisProxy, redisUrl, throughProxy, uniquePrefix } from './support/redis.js';

presenceConformance(
  'Redis',
  async () => {
    const url = redisUrl();
    const proxy = await redisProxy(url);
    const clients = new Clients();
    const prefix = uniquePrefix('presence');
    return {
      connect: async () =>
        new RedisPresence({ client: await clients.open(throughProxy(url, proxy)), prefix }),
      outage: proxy,
      close: async () => {
        await clients.quitAll();
        await proxy.close();
      },
    };
  },
  { scan: true },
);
