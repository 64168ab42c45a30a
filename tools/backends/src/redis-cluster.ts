import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ClusterShard,
  Env,
  KillOptions,
  LaunchOptions,
  RedisClusterBackend,
} from './backend.js';
import { installAdvice } from './ci.js';
import { readShards, waitUntilSettled } from './cluster-topology.js';
import { BackendUnavailableError } from './errors.js';
import { freePort } from './free-port.js';
import type { ManagedChild } from './managed-child.js';
import { launchRedisServer } from './redis.js';
import { runCli } from './redis-cli.js';
import { signalProcess } from './stop-process.js';

const HOST = '127.0.0.1';
const MASTERS = 3;
const CREATE_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;
/** Past Redis's manual failover timeout (5 s): a failover not done by then was aborted. */
const RETRY_MS = 6_000;
const INSTALL = 'apt-get install -y redis-server';

export interface RedisClusterOptions extends LaunchOptions {
  /**
   * `cluster-node-timeout` (default 2000): how long a master may be silent before its replica
   * takes over. A killed master is failed over in about twice this.
   */
  readonly nodeTimeoutMs?: number;
}

/** A node's two ports: clients, and the cluster bus between nodes. */
interface NodePorts {
  readonly port: number;
  readonly busPort: number;
}

/**
 * A local Redis Cluster of three masters and three replicas on loopback (`redis-server
 * --cluster-enabled yes`, joined by `redis-cli --cluster create`), no persistence, or the
 * cluster named by REDIS_CLUSTER_NODES (`host:port,host:port,...`). Resolves once every slot is
 * served and every replica is in sync. Its nodes are plain children, so none outlives the run.
 */
export async function startRedisCluster(
  options: RedisClusterOptions = {},
): Promise<RedisClusterBackend> {
  const env = options.env ?? process.env;
  if (env.REDIS_CLUSTER_NODES) return externalCluster(env.REDIS_CLUSTER_NODES);
  const dir = await mkdtemp(join(tmpdir(), 'dd-redis-cluster-'));
  const cluster = new LocalRedisCluster(dir, env, options.nodeTimeoutMs ?? 2_000);
  try {
    await cluster.create();
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

class LocalRedisCluster implements RedisClusterBackend {
  readonly name = 'redis-cluster';
  readonly external = false;
  private readonly ports: NodePorts[] = [];
  private readonly children = new Map<number, ManagedChild>();
  private readonly paused = new Set<number>();

  constructor(
    private readonly dir: string,
    private readonly env: Env,
    private readonly nodeTimeoutMs: number,
  ) {}

  get nodes(): ReadonlyArray<{ readonly host: string; readonly port: number }> {
    return this.ports.map(({ port }) => ({ host: HOST, port }));
  }

  get url(): string {
    return `redis://${HOST}:${this.ports[0]?.port ?? 0}`;
  }

  async create(): Promise<void> {
    // One at a time: each node takes two free ports, and two launches must not pick the same.
    for (let node = 0; node < MASTERS * 2; node += 1)
      this.ports.push(await this.launchOnFreePorts());
    const addresses = this.ports.map(({ port }) => `${HOST}:${port}`);
    try {
      await runCli(
        ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'],
        CREATE_TIMEOUT_MS,
      );
    } catch (error) {
      const missing = (error as Error).message.includes('ENOENT');
      throw new BackendUnavailableError(
        'redis-cluster',
        `redis-cluster is unavailable: ${missing ? '`redis-cli` was not found on PATH' : (error as Error).message}.\n${installAdvice(INSTALL, 'REDIS_CLUSTER_NODES', this.env)}`,
        { cause: error },
      );
    }
    await waitUntilSettled(this.live(), SETTLE_TIMEOUT_MS);
  }

  shards(): Promise<ClusterShard[]> {
    return readShards(this.anyLive());
  }

  async masterOf(slot: number): Promise<number> {
    const shard = (await this.shards()).find((each) =>
      each.slots.some(([start, end]) => slot >= start && slot <= end),
    );
    if (!shard) throw new Error(`no master serves slot ${slot}`);
    return shard.master;
  }

  async failover(master: number): Promise<number> {
    const shard = await this.shardOf(master);
    const replica = shard.replicas.find((port) => this.children.has(port));
    if (replica === undefined) throw new Error(`master ${master} has no live replica to take over`);
    // Redis aborts a manual failover that has not completed within its timeout (5 s), as on a
    // machine too busy for the replica to catch up in time: ask again then.
    const ask = () => runCli(['-h', HOST, '-p', String(replica), 'CLUSTER', 'FAILOVER'], 5_000);
    await ask();
    await this.settleWith(replica, shard, ask);
    return replica;
  }

  async kill(master: number, options: KillOptions = {}): Promise<number> {
    const shard = await this.shardOf(master);
    const child = this.children.get(master);
    if (!child) throw new Error(`node ${master} is not running`);
    this.children.delete(master);
    this.paused.delete(master);
    signalProcess(child.child, 'SIGKILL');
    await child.stop();
    await options.onKilled?.();
    const replica = shard.replicas.find((port) => this.children.has(port));
    if (replica === undefined) return master;
    await this.settleWith(replica, shard);
    return replica;
  }

  async pause(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child) throw new Error(`node ${port} is not running`);
    signalProcess(child.child, 'SIGSTOP');
    this.paused.add(port);
  }

  async resume(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child) throw new Error(`node ${port} is not running`);
    signalProcess(child.child, 'SIGCONT');
    this.paused.delete(port);
  }

  async restart(port: number): Promise<void> {
    const ports = this.ports.find((each) => each.port === port);
    if (!ports) throw new Error(`${port} is not a node of this cluster`);
    if (this.children.has(port)) throw new Error(`node ${port} is running`);
    this.children.set(port, await this.launch(ports));
    await waitUntilSettled(this.live(), SETTLE_TIMEOUT_MS);
  }

  async stop(): Promise<void> {
    try {
      // A stopped process ignores SIGTERM until it runs again.
      for (const port of this.paused) await this.resume(port).catch(() => undefined);
      const children = [...this.children.values()];
      this.children.clear();
      await Promise.all(children.map((child) => child.stop()));
    } finally {
      await rm(this.dir, { recursive: true, force: true });
    }
  }

  /**
   * Waits until `replica` serves `shard`'s slots and every live node agrees; `retry` runs
   * every `RETRY_MS` until the takeover shows.
   */
  private async settleWith(
    replica: number,
    shard: ClusterShard,
    retry?: () => Promise<unknown>,
  ): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let retryAt = Date.now() + RETRY_MS;
    const [firstSlot] = shard.slots[0] ?? [0];
    while ((await this.masterOf(firstSlot).catch(() => undefined)) !== replica) {
      if (Date.now() > deadline) {
        throw new Error(`${replica} did not take over from ${shard.master}`);
      }
      if (retry && Date.now() > retryAt) {
        retryAt = Date.now() + RETRY_MS;
        await retry().catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitUntilSettled(this.live(), Math.max(1, deadline - Date.now()));
  }

  private async shardOf(master: number): Promise<ClusterShard> {
    const shard = (await this.shards()).find((each) => each.master === master);
    if (!shard) throw new Error(`${master} is not a master of this cluster now`);
    return shard;
  }

  /** The nodes that run and answer. */
  private live(): number[] {
    return [...this.children.keys()].filter((port) => !this.paused.has(port));
  }

  private anyLive(): number {
    const [port] = this.children.keys();
    if (port === undefined) throw new Error('no node of the cluster is running');
    return port;
  }

  private async launchOnFreePorts(attempts = 3): Promise<NodePorts> {
    for (let attempt = 1; ; attempt += 1) {
      const ports = await this.freePorts();
      try {
        this.children.set(ports.port, await this.launch(ports));
        return ports;
      } catch (error) {
        const clash = error instanceof Error && /address already in use/i.test(error.message);
        if (!clash || attempt >= attempts) throw error;
      }
    }
  }

  private async freePorts(): Promise<NodePorts> {
    const taken = new Set(this.ports.flatMap(({ port, busPort }) => [port, busPort]));
    const pick = async (): Promise<number> => {
      for (;;) {
        const port = await freePort();
        if (!taken.has(port)) {
          taken.add(port);
          return port;
        }
      }
    };
    return { port: await pick(), busPort: await pick() };
  }

  private launch({ port, busPort }: NodePorts): Promise<ManagedChild> {
    return launchRedisServer({
      port,
      env: this.env,
      backend: 'redis-cluster',
      envVar: 'REDIS_CLUSTER_NODES',
      args: [
        ...['--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
        ...['--cluster-config-file', `nodes-${port}.conf`, '--dir', this.dir],
        ...['--cluster-node-timeout', String(this.nodeTimeoutMs)],
        // A replica's first sync starts at once instead of after 5 s.
        ...['--repl-diskless-sync-delay', '0'],
      ],
    });
  }
}

function externalCluster(list: string): RedisClusterBackend {
  const nodes = list.split(',').map((address) => {
    const [host = HOST, port = '6379'] = address.trim().split(':');
    return { host, port: Number(port) };
  });
  const refuse = (what: string) => async (): Promise<never> => {
    throw new Error(
      `Cannot ${what} the Redis Cluster: it comes from REDIS_CLUSTER_NODES (${list}) and is not ours. Check \`backend.external\` first.`,
    );
  };
  return {
    name: 'redis-cluster',
    external: true,
    url: `redis://${nodes[0]?.host}:${nodes[0]?.port}`,
    nodes,
    stop: async () => {},
    shards: refuse('read the shards of'),
    pause: refuse('pause a node of'),
    resume: refuse('resume a node of'),
    masterOf: refuse('read the masters of'),
    failover: refuse('fail over'),
    kill: refuse('kill a node of'),
    restart: refuse('restart a node of'),
  };
}
