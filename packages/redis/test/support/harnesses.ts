/**
 * The conformance suites' harnesses, written once for both deployments: the run's
 * redis-server behind one TCP proxy, or the run's Redis Cluster behind a proxy per node.
 */
import type { MessengerHarness, Outage, PresenceHarness, StoreHarness } from '@datadriver/testkit';
import { type RedisClient, RedisMessenger, RedisPresence, RedisStore } from '../../src/index.js';
import { channelOf, recordKey } from '../../src/keys.js';
import { ClusterProxies, connectCluster } from './cluster.js';
import { Clients, redisProxy, redisUrl, throughProxy, uniquePrefix } from './redis.js';

/** Clients of one deployment: `connect` goes through what `outage` cuts, `raw` does not. */
export interface Target {
  connect(): Promise<RedisClient>;
  readonly raw: RedisClient;
  readonly outage: Outage;
  close(): Promise<void>;
}

export type MakeTarget = () => Promise<Target>;

/** The run's redis-server, through a TCP proxy. */
export const singleNode: MakeTarget = async () => {
  const url = redisUrl();
  const proxy = await redisProxy(url);
  const clients = new Clients();
  return {
    connect: () => clients.open(throughProxy(url, proxy)),
    raw: await clients.open(url),
    outage: proxy,
    close: async () => {
      await clients.quitAll();
      await proxy.close();
    },
  };
};

/** The run's Redis Cluster, through a proxy per node; clients able to use sharded pub/sub. */
export const redisCluster: MakeTarget = async () => {
  const proxies = await ClusterProxies.start();
  const clients = new Clients();
  return {
    connect: async () => clients.add(await proxies.connect({ sharded: true })),
    raw: clients.add(await connectCluster(undefined, { sharded: true })),
    outage: proxies,
    close: async () => {
      await clients.quitAll();
      await proxies.close();
    },
  };
};

/** Stores keeping `keep` versions; `read` looks at the hash itself. */
export function storeHarness(makeTarget: MakeTarget, keep: number) {
  return async (): Promise<StoreHarness> => {
    const target = await makeTarget();
    const prefix = uniquePrefix('store');
    return {
      connect: async () =>
        new RedisStore({ client: await target.connect(), prefix, versions: { keep } }),
      read: async (key) => {
        const json = await target.raw.hget(recordKey(prefix, key), 'record');
        return json === null ? undefined : JSON.parse(json);
      },
      outage: target.outage,
      close: () => target.close(),
    };
  };
}

export function messengerHarness(makeTarget: MakeTarget, sharded: boolean) {
  return async (): Promise<MessengerHarness> => {
    const target = await makeTarget();
    const messengers: RedisMessenger[] = [];
    const prefix = uniquePrefix(sharded ? 'sharded' : 'messenger');
    return {
      connect: async () => {
        const messenger = new RedisMessenger({ client: await target.connect(), prefix, sharded });
        messengers.push(messenger);
        return messenger;
      },
      publishRaw: async (topic, payload) => {
        const channel = channelOf(prefix, topic);
        const { raw } = target;
        await (sharded ? raw.spublish(channel, payload) : raw.publish(channel, payload));
      },
      outage: target.outage,
      close: async () => {
        await Promise.all(messengers.map((messenger) => messenger.close()));
        await target.close();
      },
    };
  };
}

export function presenceHarness(makeTarget: MakeTarget) {
  return async (): Promise<PresenceHarness> => {
    const target = await makeTarget();
    const prefix = uniquePrefix('presence');
    return {
      connect: async () => new RedisPresence({ client: await target.connect(), prefix }),
      outage: target.outage,
      close: () => target.close(),
    };
  };
}
