import { type MessengerHarness, messengerConformance } from '@datadriver/testkit';
import { RedisMessenger } from '../../src/index.js';
import { channelOf } from '../../src/keys.js';
import { ClusterProxies, connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

function harness(sharded: boolean) {
  return async (): Promise<MessengerHarness> => {
    const proxies = await ClusterProxies.start();
    const clients = new Clients();
    const raw = clients.add(await connectCluster());
    const messengers: RedisMessenger[] = [];
    const prefix = uniquePrefix(sharded ? 'sharded' : 'messenger');
    return {
      connect: async () => {
        const client = clients.add(await proxies.connect());
        const messenger = new RedisMessenger({ client, prefix, sharded });
        messengers.push(messenger);
        return messenger;
      },
      publishRaw: async (topic, payload) => {
        const channel = channelOf(prefix, topic);
        await (sharded ? raw.spublish(channel, payload) : raw.publish(channel, payload));
      },
      outage: proxies,
      close: async () => {
        await Promise.all(messengers.map((messenger) => messenger.close()));
        await clients.quitAll();
        await proxies.close();
      },
    };
  };
}

messengerConformance('Redis Cluster pub/sub', harness(false));
messengerConformance('Redis Cluster sharded pub/sub', harness(true));
