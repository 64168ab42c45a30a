import { afterAll, describe, expect, it } from 'vitest';
import { type RedisClusterBackend, startRedisCluster } from '../src/index.js';
import { redisCli } from '../src/redis-cli.js';
import { isListening, processesMentioning } from './helpers.js';

const HOST = '127.0.0.1';

/** Slots covered by the shards, counted once each. */
function covered(shards: Awaited<ReturnType<RedisClusterBackend['shards']>>): number {
  return shards
    .flatMap((shard) => shard.slots)
    .reduce((sum, [start, end]) => sum + end - start + 1, 0);
}

describe('startRedisCluster (own cluster)', () => {
  let cluster: RedisClusterBackend;
  afterAll(() => cluster?.stop());

  it('starts three masters, each with a replica in sync, serving all 16384 slots', async () => {
    const started = Date.now();
    cluster = await startRedisCluster({ env: {} });
    console.info(`Redis Cluster ready in ${Date.now() - started} ms`);
    expect(cluster.external).toBe(false);
    expect(cluster.nodes).toHaveLength(6);
    const shards = await cluster.shards();
    expect(shards).toHaveLength(3);
    expect(shards.every((shard) => shard.replicas.length === 1)).toBe(true);
    expect(covered(shards)).toBe(16384);
    expect(await redisCli(cluster.nodes[0]!.port, 'CLUSTER', 'INFO')).toMatch(/cluster_state:ok/);
  });

  it('fails a master over to its replica, which then serves its slots', async () => {
    const [shard] = await cluster.shards();
    const promoted = await cluster.failover(shard!.master);
    expect(promoted).toBe(shard!.replicas[0]);
    expect(await cluster.masterOf(shard!.slots[0]![0])).toBe(promoted);
    const after = (await cluster.shards()).find((each) => each.master === promoted);
    expect(after?.replicas).toEqual([shard!.master]);
  });

  it('SIGKILLs a master, its replica takes over, and the node comes back as a replica', async () => {
    const [, shard] = await cluster.shards();
    const started = Date.now();
    const promoted = await cluster.kill(shard!.master);
    console.info(`failover after SIGKILL settled in ${Date.now() - started} ms`);
    expect(promoted).toBe(shard!.replicas[0]);
    expect(await isListening(HOST, shard!.master)).toBe(false);
    expect(await cluster.masterOf(shard!.slots[0]![0])).toBe(promoted);
    await cluster.restart(shard!.master);
    const after = (await cluster.shards()).find((each) => each.master === promoted);
    expect(after?.replicas).toEqual([shard!.master]);
    expect(covered(await cluster.shards())).toBe(16384);
  });

  it('stop() leaves no node listening and no redis-server process', async () => {
    const ports = cluster.nodes.map((node) => node.port);
    await cluster.stop();
    for (const port of ports) {
      expect(await isListening(HOST, port)).toBe(false);
      expect(processesMentioning(`redis-server ${HOST}:${port}`)).toEqual([]);
    }
  });
});

describe('startRedisCluster (REDIS_CLUSTER_NODES)', () => {
  it('uses the given nodes and refuses to touch them', async () => {
    const cluster = await startRedisCluster({
      env: { REDIS_CLUSTER_NODES: 'cache.example:7000,cache.example:7001' },
    });
    expect(cluster).toMatchObject({
      external: true,
      nodes: [
        { host: 'cache.example', port: 7000 },
        { host: 'cache.example', port: 7001 },
      ],
    });
    await expect(cluster.failover(7000)).rejects.toThrow(/REDIS_CLUSTER_NODES.*external/);
    await expect(cluster.kill(7000)).rejects.toThrow(/REDIS_CLUSTER_NODES/);
    await cluster.stop();
  });
});
