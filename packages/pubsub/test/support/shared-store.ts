/**
 * The store and presence the handoff scenarios run on beside Pub/Sub: Redis (each server its
 * own connection), as a Google Cloud fleet would pair them; or core's in-memory ones.
 */

import { type Presence, type Store, SystemScheduler } from '@datadriver/core/ports';
import { MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { RECOMMENDED_REDIS_OPTIONS, RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

export interface SharedStore {
  /** The ports one server uses (its own connections on a real backend). */
  connect(): Promise<{ readonly store: Store; readonly presence: Presence }>;
  /** A stored record, read past every server. */
  read(storeKey: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Core's in-memory store and presence on real time, shared by every server in the process. */
export function memoryStore(): SharedStore {
  const store = new MemoryStore();
  const presence = new MemoryPresence(new SystemScheduler());
  return {
    connect: async () => ({ store, presence }),
    read: async (storeKey) => store.peek(storeKey),
    close: async () => undefined,
  };
}

/** RedisStore and RedisPresence on `url`, one client per server, under a prefix of their own. */
export function redisStore(url: string): SharedStore {
  const prefix = `dd-pubsub-${process.pid}-${Date.now().toString(36)}:`;
  const clients: Redis[] = [];
  const client = () => {
    const next = new Redis(url, RECOMMENDED_REDIS_OPTIONS);
    clients.push(next);
    return next;
  };
  const reader = new RedisStore({ client: client(), prefix });
  return {
    connect: async () => {
      const own = client();
      return {
        store: new RedisStore({ client: own, prefix }),
        presence: new RedisPresence({ client: own, prefix }),
      };
    },
    read: (storeKey) => reader.get(storeKey),
    close: async () => {
      await Promise.all(clients.map((each) => each.quit()));
    },
  };
}
