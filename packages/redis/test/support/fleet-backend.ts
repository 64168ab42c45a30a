/**
 * The testkit's ClusterBackend (a fleet of simulated game servers) on the run's Redis or on its
 * Redis Cluster: each simulated server gets its own client.
 */
import type { VersionRetention } from '@datadriver/core/ports';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import {
  type RedisClient,
  RedisMessenger,
  RedisPresence,
  RedisStore,
  type RedisStoreOptions,
} from '../../src/index.js';
import { recordKey } from '../../src/keys.js';
import { type ClusterClientOptions, connectCluster, type NodeAddress } from './cluster.js';
import { Clients, quiet, redisUrl, TEST_OPTIONS, uniquePrefix } from './redis.js';

export interface RedisBackendOptions {
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions with this retention (the lifecycle scenarios need them). */
  readonly versions?: VersionRetention;
  /** On a Redis Cluster of these nodes instead of the run's redis-server. */
  readonly cluster?: readonly NodeAddress[];
  /** Sharded pub/sub for the handoff's messages. */
  readonly sharded?: boolean;
  /** More options of the servers' stores (`waitForReplicas`, ...), for each server by its id. */
  readonly store?: Partial<RedisStoreOptions> | ((serverId: string) => Partial<RedisStoreOptions>);
  /** More options of every server's Cluster client. */
  readonly clusterClient?: ClusterClientOptions;
  /** Where the servers' Cluster clients come from, made ahead (`clusterClientPool`). */
  readonly pool?: ClusterClientPool;
}

/** Cluster clients made before the tests start, handed out one per server. */
export interface ClusterClientPool {
  take(): Promise<Cluster>;
}

/**
 * Makes `size` ready Cluster clients before the file's tests and quits those left after them.
 * A Cluster client costs a few ms of CPU to make (its slot map; several times that with
 * sharded subscribers): a real server pays it once at boot, but a file of concurrent scenarios
 * would pay it for dozens of simulated servers at once, in the middle of the waits it times.
 */
export function clusterClientPool(
  nodes: readonly NodeAddress[],
  options: ClusterClientOptions & { readonly size: number },
): ClusterClientPool {
  const ready: Cluster[] = [];
  beforeAll(async () => {
    for (let made = 0; made < options.size; made += 10) {
      const batch = Math.min(10, options.size - made);
      ready.push(
        ...(await Promise.all(Array.from({ length: batch }, () => connectCluster(nodes, options)))),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all(
      ready.splice(0).map((client) => client.quit().catch(() => client.disconnect())),
    );
  });
  return { take: async () => ready.pop() ?? connectCluster(nodes, options) };
}

export async function redisFleetBackend(options: RedisBackendOptions): Promise<ClusterBackend> {
  const clients = new Clients();
  const messengers: RedisMessenger[] = [];
  const prefix = uniquePrefix('fleet');
  const sharded = options.sharded ?? false;
  const open = async (connectionName?: string): Promise<RedisClient> => {
    if (!options.cluster) {
      return clients.open(redisUrl(), { ...TEST_OPTIONS, connectionName });
    }
    const client = options.pool
      ? await options.pool.take()
      : await connectCluster(options.cluster, {
          ...options.clusterClient,
          sharded,
          connectionName,
        });
    return clients.add(client);
  };
  const reader = await open();
  return {
    name: options.cluster ? 'redis-cluster' : 'redis',
    time: realTime(),
    scale: options.scale,
    connect: async (serverId) => {
      const client = await open(serverId);
      const messenger = new RedisMessenger({ client, prefix, sharded, logger: quiet });
      messengers.push(messenger);
      const storeOptions =
        typeof options.store === 'function' ? options.store(serverId) : (options.store ?? {});
      // A store that waits for replicas holds its connection on each WAIT: a client of its own.
      const storeClient = storeOptions.waitForReplicas ? await open(`${serverId}-store`) : client;
      return {
        store: new RedisStore({
          client: storeClient,
          prefix,
          logger: quiet,
          versions: options.versions,
          ...storeOptions,
        }),
        messenger,
        presence: new RedisPresence({ client, prefix, logger: quiet }),
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
