import { type MessengerHarness, messengerConformance } from '@datadriver/testkit';
import { RedisMessenger } from '../src/index.js';
import { channelOf } from '../src/keys.js';
import { Clients, redisProxy, redisUrl, throughProxy, uniquePrefix } from './support/redis.js';

function harness(sharded: boolean) {
  return async (): Promise<MessengerHarness> => {
    const url = redisUrl();
    const proxy = await redisProxy(url);
    const clients = new Clients();
    const raw = await clients.open(url);
    const messengers: RedisMessenger[] = [];
    const prefix = uniquePrefix(sharded ? 'sharded' : 'messenger');
    return {
      connect: async () => {
        const client = await clients.open(throughProxy(url, proxy));
        const messenger = new RedisMessenger({ client, prefix, sharded });
        messengers.push(messenger);
        return messenger;
      },
      publishRaw: async (topic, payload) => {
        const channel = channelOf(prefix, topic);
        await (sharded ? raw.spublish(channel, payload) : raw.publish(channel, payload));
      },
      outage: proxy,
      close: async () => {
        await Promise.all(messengers.map((messenger) => messenger.close()));
        await clients.quitAll();
        await proxy.close();
      },
    };
  };
}

messengerConformance('Redis pub/sub', harness(false));
messengerConformance('Redis sharded pub/sub', harness(true));
