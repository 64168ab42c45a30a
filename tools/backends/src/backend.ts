/** A running service that tests talk to, started by us or supplied by the environment. */
export interface Backend {
  readonly name: string;
  readonly url: string;
  /** True when the address came from an environment variable: we neither started nor own it. */
  readonly external: boolean;
  /** Stops what we started; a no-op for external backends. Safe to call twice. */
  stop(): Promise<void>;
}

export interface RedisBackend extends Backend {
  readonly port: number;
  /** Stops the server but keeps the port, so `restart()` brings it back at the same address. */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

/** A PostgreSQL server; `url` is a connection string (`postgres://postgres@127.0.0.1:PORT/postgres`). */
export interface PostgresBackend extends Backend {
  readonly port: number;
  /** Stops the server (fast shutdown: sessions end, committed data stays) but keeps its data and port. */
  kill(): Promise<void>;
  /** Starts it again on the same data folder and port. */
  restart(): Promise<void>;
}

/** Who serves which slots of a Redis Cluster (see `RedisClusterBackend.shards`). */
export interface ClusterShard {
  /** The master's port. */
  readonly master: number;
  /** Ports of its replicas, connected or not. */
  readonly replicas: readonly number[];
  /** Inclusive slot ranges. */
  readonly slots: ReadonlyArray<readonly [number, number]>;
}

/**
 * A Redis Cluster. The helpers below work on a cluster we started (they throw for
 * REDIS_CLUSTER_NODES) and each resolves once the cluster has settled: every slot served, every
 * live replica in sync, every live node agreeing.
 */
export interface RedisClusterBackend extends Backend {
  /** Every node, masters and replicas: an ioredis `Cluster`'s startup nodes. */
  readonly nodes: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  /** Who serves which slots now. */
  shards(): Promise<ClusterShard[]>;
  /** The port of the master serving `slot` now. */
  masterOf(slot: number): Promise<number>;
  /** Manual failover (`CLUSTER FAILOVER` on a replica of `master`); resolves to the new master. */
  failover(master: number): Promise<number>;
  /** SIGKILLs `master`; resolves to the replica that took over its slots. */
  kill(master: number, options?: KillOptions): Promise<number>;
  /**
   * SIGSTOPs a node: it answers nothing, replicates nothing and keeps its connections, as a
   * node behind a stalled network does. `resume` (SIGCONT) lets it run again.
   */
  pause(port: number): Promise<void>;
  resume(port: number): Promise<void>;
  /** Starts a killed node again on its port: it rejoins as a replica and syncs. */
  restart(port: number): Promise<void>;
}

export interface KillOptions {
  /** Runs once the master's process is gone, before the wait for its replica to take over. */
  readonly onKilled?: () => Promise<void>;
}

export interface DynamoLocalBackend extends Backend {
  /** `http://127.0.0.1:PORT`, ready for the AWS SDK's `endpoint` option. */
  readonly endpoint: string;
}

export interface PubSubBackend extends Backend {
  /** `127.0.0.1:PORT`, the form `PUBSUB_EMULATOR_HOST` and the client library's `apiEndpoint` use. */
  readonly endpoint: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Lets tests of this package pretend an environment without mutating `process.env`. */
export interface LaunchOptions {
  readonly env?: Env;
  /**
   * The caller handles SIGINT and SIGTERM itself and stops the backend when it chooses (a runner
   * that stops its game servers first, Redis last): the server then runs in its own process
   * group, out of reach of a terminal's Ctrl-C, and is killed on a signal only when this
   * process exits. Redis and PostgreSQL.
   */
  readonly ownSignals?: boolean;
  /**
   * Redis only: keep the data in this directory (an append-only file, fsynced before each
   * write is answered), so `restart()` brings back every acknowledged write. Unset: no
   * persistence, and a restart starts empty.
   */
  readonly dataDir?: string;
  /**
   * DynamoDB Local only: the JVM compiles with its quick compiler alone
   * (`-XX:TieredStopAtLevel=1`) and collects with the serial collector, so it starts in about
   * 60% of the time (17-19 s down to 11 s on a loaded 2-core machine), at some cost in peak
   * speed: for short runs that never warm it up.
   */
  readonly quickStart?: boolean;
  /**
   * Pub/Sub only: our emulator runs in a node process of its own, not in this one. For
   * measurements: a real Pub/Sub is another machine, and a process that is itself one end of
   * a message must not serve the emulator's side of it too, for free (no wake, no context
   * switch). Unset: in this process, which starts quicker and cannot outlive it.
   */
  readonly ownProcess?: boolean;
}
