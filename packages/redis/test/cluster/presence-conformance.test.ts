import { presenceConformance } from '@datadriver/testkit';
import { RedisPresence } from '../../src/index.js';
import { ClusterProxies } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

presenceConformance('Redis Cluster', async () => {
  const proxies = await ClusterProxies.start();
  const clients = new Clients();
  const prefix = uniquePrefix('presence');
  return {
    connect: async () =>
      new RedisPresence({ client: clients.add(await proxies.connect()), prefix }),
    outage: proxies,
    close: async () => {
      await clients.quitAll();
      await proxies.close();
    },
  };
});
