/** The testkit's ClusterBackend on the run's Redis: each simulated server gets its own client. */
import type { VersionRetention } from '@datadriver/core/ports';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import type { Redis } from 'ioredis';
import { RedisMessenger, RedisPresence, RedisStore } from '../../src/index.js';
import { recordKey } from '../../src/keys.js';
import { Clients, redisUrl, TEST_OPTIONS, uniquePrefix } from './redis.js';

export interface RedisBackendOptions {
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions with this retention (the lifecycle scenarios need them). */
  readonly versions?: VersionRetention;
}

export async function redisClusterBackend(options: RedisBackendOptions): Promise<ClusterBackend> {
  const clients = new Clients();
  const messengers: RedisMessenger[] = [];
  const prefix = uniquePrefix('cluster');
  const reader: Redis = await clients.open(redisUrl());
  // The cluster's own log lines are what scenarios assert on; the adapters' are noise there.
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
  return {
    name: 'redis',
    time: realTime(),
    scale: options.scale,
    connect: async (serverId) => {
      const client = await clients.open(redisUrl(), { ...TEST_OPTIONS, connectionName: serverId });
      const messenger = new RedisMessenger({ client, prefix, logger });
      messengers.push(messenger);
      return {
        store: new RedisStore({ client, prefix, logger, versions: options.versions }),
        messenger,
        presence: new RedisPresence({ client, prefix, logger }),
      };
    },
    read: async (storeKey) => {
      const json = await reader.hget(recordKey(prefix, storeKey), 'record');
      return json === null ? undefined : JSON.parse(json);
    },
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.close()));
      await clients.quitAll();
    },
  };
}
