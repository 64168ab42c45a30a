/**
 * A test process's own connections to the game servers' Redis, under the servers' default key
 * prefix: the ports a lateness probe and a presence-expiry read use beside the servers.
 */
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import type { ServerPorts } from '@datadriver/testkit';
import { Redis } from 'ioredis';

export interface RedisProbePorts extends ServerPorts {
  /** Ends the messenger's subscriptions, then the connection. */
  close(): Promise<void>;
}

/** One connection to `url`, shared by a store, a presence and a messenger. */
export function redisProbePorts(url: string): RedisProbePorts {
  const redis = new Redis(url, RECOMMENDED_REDIS_OPTIONS);
  const messenger = new RedisMessenger({ client: redis });
  return {
    store: new RedisStore({ client: redis }),
    presence: new RedisPresence({ client: redis }),
    messenger,
    async close() {
      await messenger.close();
      await redis.quit();
    },
  };
}
