/**
 * Helpers for test files that fail masters over: they start a Redis Cluster of their own
 * (tools/backends' `startRedisCluster`), so the run's shared cluster is never disturbed.
 */
import { type RedisClusterBackend, startRedisCluster } from '@datadriver/backends';
import { afterAll, beforeAll } from 'vitest';
import { Clients, connect } from './redis.js';

export interface OwnCluster {
  /** The file's cluster (from its first test on). */
  readonly cluster: RedisClusterBackend;
  /** Clients that are quit before the cluster stops. */
  readonly clients: Clients;
}

/** Starts a cluster of the calling file's own before its tests, and stops it after them. */
export function ownCluster(): OwnCluster {
  const own = { clients: new Clients() } as { cluster: RedisClusterBackend; clients: Clients };
  beforeAll(async () => {
    own.cluster = await startRedisCluster();
  }, 60_000);
  afterAll(async () => {
    try {
      await own.clients.quitAll();
    } finally {
      await own.cluster?.stop();
    }
  });
  return own;
}

export type Move = 'failover' | 'kill';

/**
 * Moves the master serving `slot` away, by a manual failover or a SIGKILL (the killed node
 * then rejoins as a replica, so the cluster has a replica for each master again).
 */
export async function moveMaster(
  cluster: RedisClusterBackend,
  move: Move,
  slot: number,
): Promise<{ from: number; to: number }> {
  const from = await cluster.masterOf(slot);
  const to = move === 'failover' ? await cluster.failover(from) : await cluster.kill(from);
  if (move === 'kill') await cluster.restart(from);
  return { from, to };
}

/** Polls `condition` every 20 ms; the time it took (ms), or an error after `limitMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  limitMs: number,
  what: string,
): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

/** Publishes until `received` grows; the time from the first try to the delivery (ms). */
export function deliveredWithin(
  publish: () => Promise<unknown>,
  received: readonly unknown[],
  limitMs: number,
  what: string,
): Promise<number> {
  const before = received.length;
  return until(
    async () => {
      await publish().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 30));
      return received.length > before;
    },
    limitMs,
    what,
  );
}

/** Subscribers of the shard channel `channel` on the node at `port` (PUBSUB SHARDNUMSUB). */
export async function shardSubscribers(port: number, channel: string): Promise<number> {
  const node = await connect(`redis://127.0.0.1:${port}`);
  try {
    const reply = (await node.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
    return Number(reply[1]);
  } finally {
    node.disconnect();
  }
}

/** Drops every replica's link to the master at `port` (CLIENT KILL TYPE replica). */
export async function dropReplicaLinks(port: number): Promise<void> {
  const node = await connect(`redis://127.0.0.1:${port}`);
  try {
    await node.client('KILL', 'TYPE', 'replica');
  } finally {
    node.disconnect();
  }
}
