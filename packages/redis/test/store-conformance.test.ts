import type { Store } from '@datadriver/core';
import { storeConformance } from '@datadriver/testkit';
import { RedisStore } from '../src/index.js';
import { Clients, redisProxy, redisUrl, throughProxy, uniquePrefix } from './support/redis.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

/**
 * The store as the suite sees it, with its updates in flight recorded. Workaround for the
 * suite's conflict case, which starts a write on another connection without awaiting it: on a
 * real backend that write lands after the suite's own update resolves, so `read` waits for it
 * (and its promise, never caught by the suite, cannot reject unhandled in a later test).
 */
function tracked(store: RedisStore, inFlight: Set<Promise<unknown>>): Store {
  return {
    specificationVersion: store.specificationVersion,
    versions: store.versions,
    get: (key) => store.get(key),
    update: (key, transform, options) => {
      const update = store.update(key, transform, options);
      const settle = () => void inFlight.delete(update);
      inFlight.add(update);
      update.then(settle, settle);
      return update;
    },
  };
}

storeConformance(
  'Redis',
  async () => {
    const url = redisUrl();
    const proxy = await redisProxy(url);
    const clients = new Clients();
    const reader = await clients.open(url);
    const prefix = uniquePrefix('store');
    const inFlight = new Set<Promise<unknown>>();
    return {
      connect: async () => {
        const client = await clients.open(throughProxy(url, proxy));
        return tracked(new RedisStore({ client, prefix, versions: { keep: KEEP } }), inFlight);
      },
      read: async (key) => {
        await Promise.allSettled([...inFlight]);
        const json = await reader.hget(`${prefix}${key}`, 'record');
        return json === null ? undefined : JSON.parse(json);
      },
      outage: proxy,
      close: async () => {
        await clients.quitAll();
        await proxy.close();
      },
    };
  },
  { versions: { keep: KEEP } },
);
