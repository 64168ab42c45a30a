/** The testkit's ClusterBackend on the run's Redis: each simulated server its own client. */
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import { Redis } from 'ioredis';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
let backends = 0;

export function redisBackend(url: string, scale: number): ClusterBackend {
  backends += 1;
  const prefix = `otel-${process.pid}-${backends}-${Date.now().toString(36)}:`;
  const clients: Redis[] = [];
  const messengers: RedisMessenger[] = [];
  const open = () => {
    const client = new Redis(url, { ...RECOMMENDED_REDIS_OPTIONS, commandTimeout: 2_000 });
    client.on('error', () => undefined);
    clients.push(client);
    return client;
  };
  const reader = new RedisStore({ client: open(), prefix, logger: quiet });
  return {
    name: 'redis',
    time: realTime(),
    scale,
    connect: async () => {
      const client = open();
      const messenger = new RedisMessenger({ client, prefix, logger: quiet });
      messengers.push(messenger);
      return {
        store: new RedisStore({ client, prefix, logger: quiet }),
        messenger,
        presence: new RedisPresence({ client, prefix, logger: quiet }),
      };
    },
    read: (storeKey) => reader.get(storeKey),
    close: async () => {
      for (const messenger of messengers) await messenger.close();
      for (const client of clients) client.disconnect();
    },
  };
}
