/**
 * Clients and outages for tests against the run's Redis Cluster (tools/backends starts three
 * masters and three replicas once per run, or REDIS_CLUSTER_NODES names one).
 *
 * An outage is a TCP proxy in front of every node: the cluster announces its nodes' own
 * addresses, and `natMap` sends the client to the proxies instead, so stopping them takes the
 * whole cluster away from that client and nothing else.
 */
import { startTcpProxy, type TcpProxy } from '@datadriver/backends';
import { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { inject } from 'vitest';
import { RECOMMENDED_CLUSTER_OPTIONS } from '../../src/index.js';
import { TEST_OPTIONS } from './redis.js';

export interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

/** The run's cluster nodes. */
export function clusterNodes(): NodeAddress[] {
  return inject('redisClusterNodes')
    .split(',')
    .map((address) => {
      const [host = '127.0.0.1', port = '6379'] = address.split(':');
      return { host, port: Number(port) };
    });
}

export interface ClusterClientOptions {
  /** `shardedSubscribers: true`, which sharded pub/sub needs (default false). */
  readonly sharded?: boolean;
  readonly connectionName?: string;
  /** Node options merged over the test ones (`commandTimeout`, ...). */
  readonly redisOptions?: RedisOptions;
  /** Cluster options merged over the test ones. */
  readonly cluster?: ClusterOptions;
}

/** The test options of a Cluster client: the recommended ones, with a 2 s command timeout. */
export function clusterOptions(options: ClusterClientOptions = {}): ClusterOptions {
  return {
    ...RECOMMENDED_CLUSTER_OPTIONS,
    shardedSubscribers: options.sharded ?? false,
    ...options.cluster,
    redisOptions: {
      ...TEST_OPTIONS,
      ...(options.connectionName ? { connectionName: options.connectionName } : {}),
      ...options.redisOptions,
    },
  };
}

/** Resolves once `cluster` is ready, or rejects with its last error after `limitMs`. */
export function ready(cluster: Cluster, limitMs = 15_000): Promise<Cluster> {
  if (cluster.status === 'ready') return Promise.resolve(cluster);
  return new Promise((resolve, reject) => {
    let last: unknown;
    const onError = (error: unknown) => {
      last = error;
    };
    const timer = setTimeout(() => {
      cluster.off('ready', onReady);
      cluster.off('error', onError);
      reject(new Error(`the cluster client was not ready within ${limitMs} ms: ${String(last)}`));
    }, limitMs);
    const onReady = () => {
      clearTimeout(timer);
      cluster.off('error', onError);
      resolve(cluster);
    };
    cluster.once('ready', onReady);
    cluster.on('error', onError);
  });
}

/** A ready Cluster client; its errors during outages are expected and kept quiet. */
export async function connectCluster(
  nodes: readonly NodeAddress[] = clusterNodes(),
  options: ClusterClientOptions = {},
): Promise<Cluster> {
  const cluster = new Cluster([...nodes], clusterOptions(options));
  cluster.on('error', () => undefined);
  cluster.on('node error', () => undefined);
  return ready(cluster);
}

/** A proxy in front of each node, and the `natMap` that sends a client through them. */
export class ClusterProxies {
  private constructor(
    private readonly proxies: ReadonlyArray<{ node: NodeAddress; proxy: TcpProxy }>,
  ) {}

  static async start(nodes: readonly NodeAddress[] = clusterNodes()): Promise<ClusterProxies> {
    const proxies = await Promise.all(
      nodes.map(async (node) => ({ node, proxy: await startTcpProxy(node) })),
    );
    return new ClusterProxies(proxies);
  }

  /** The proxies' addresses: startup nodes that already go through them. */
  get nodes(): NodeAddress[] {
    return this.proxies.map(({ proxy }) => ({ host: '127.0.0.1', port: proxy.port }));
  }

  /** Announced node address to its proxy. */
  get natMap(): Record<string, { host: string; port: number }> {
    return Object.fromEntries(
      this.proxies.map(({ node, proxy }) => [
        `${node.host}:${node.port}`,
        { host: '127.0.0.1', port: proxy.port },
      ]),
    );
  }

  /** A ready client whose every connection goes through the proxies. */
  connect(options: ClusterClientOptions = {}): Promise<Cluster> {
    return connectCluster(this.nodes, {
      ...options,
      cluster: { ...options.cluster, natMap: this.natMap },
    });
  }

  /** Cuts every connection to every node and refuses new ones. */
  async stop(): Promise<void> {
    await Promise.all(this.proxies.map(({ proxy }) => proxy.stop()));
  }

  async start(): Promise<void> {
    await Promise.all(this.proxies.map(({ proxy }) => proxy.start()));
  }

  async close(): Promise<void> {
    await Promise.all(this.proxies.map(({ proxy }) => proxy.close()));
  }
}
