import { storeConformance } from '@datadriver/testkit';
import { RedisStore } from '../../src/index.js';
import { recordKey } from '../../src/keys.js';
import { ClusterProxies, connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

storeConformance(
  'Redis Cluster',
  async () => {
    const proxies = await ClusterProxies.start();
    const clients = new Clients();
    const reader = clients.add(await connectCluster());
    const prefix = uniquePrefix('store');
    return {
      connect: async () => {
        const client = clients.add(await proxies.connect());
        return new RedisStore({ client, prefix, versions: { keep: KEEP } });
      },
      read: async (key) => {
        const json = await reader.hget(recordKey(prefix, key), 'record');
        return json === null ? undefined : JSON.parse(json);
      },
      outage: proxies,
      close: async () => {
        await clients.quitAll();
        await proxies.close();
      },
    };
  },
  { versions: { keep: KEEP } },
);
