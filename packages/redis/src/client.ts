/**
 * The ioredis client the user owns, and the options that make it fail fast: DataDriver treats
 * a failed call as "not known to be written" and retries on its own schedule, so a command
 * must never sit in a queue for as long as a lock wait.
 */
import type { Logger } from '@datadriver/core/ports';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

/** A standalone (or Sentinel) client, or a Cluster client. The adapters never close it. */
export type RedisClient = Redis | Cluster;

/** What every adapter of this package takes. */
export interface RedisAdapterOptions {
  /** The user's connected client; shared freely between adapters and the rest of the app. */
  readonly client: RedisClient;
  /** Prepended to every key and channel (default `dd:`). */
  readonly prefix?: string;
  /** Debug lines and warnings (default: warnings to the console). */
  readonly logger?: Logger;
}

/** The prefix used when none is given. */
export const DEFAULT_PREFIX = 'dd:';

/**
 * The ioredis options to merge into the client's own: `new Redis(url, RECOMMENDED_REDIS_OPTIONS)`.
 *
 * - `maxRetriesPerRequest: 1`: a command queued or in flight when the connection drops waits
 *   through one reconnection attempt, then fails (`Data.Unavailable`) instead of waiting through
 *   twenty (ioredis's default, about 10 s).
 * - `commandTimeout: 5000`: a command on a connection that died silently (no RST, a black-holed
 *   route) fails after 5 s instead of when the OS gives up, minutes later.
 *
 * The offline queue stays on, so commands sent while the client is still connecting wait for it.
 */
export const RECOMMENDED_REDIS_OPTIONS = Object.freeze({
  maxRetriesPerRequest: 1,
  commandTimeout: 5_000,
} satisfies Partial<RedisOptions>);

/**
 * The ioredis Cluster options to merge into a Cluster client's own:
 * `new Cluster(nodes, { ...RECOMMENDED_CLUSTER_OPTIONS })`.
 *
 * - `redisOptions: RECOMMENDED_REDIS_OPTIONS` for every node connection. Its `commandTimeout`
 *   also bounds each adapter call, because the Cluster client's own offline queue (used while
 *   no node answers) is bounded by neither node option.
 * - `scaleReads: 'master'` (ioredis's default, kept when options are merged): the store's read
 *   must see the latest write, which a replica may not have yet.
 *
 * Add `shardedSubscribers: true` for `new RedisMessenger({ client, sharded: true })`.
 */
export const RECOMMENDED_CLUSTER_OPTIONS = Object.freeze({
  redisOptions: RECOMMENDED_REDIS_OPTIONS,
  scaleReads: 'master',
} satisfies Partial<ClusterOptions>);

/** The connection options of either kind of client. */
export function connectionOptions(client: RedisClient): Partial<RedisOptions> {
  return client.isCluster
    ? ((client as Cluster).options.redisOptions ?? {})
    : (client as Redis).options;
}

const checked = new WeakSet<RedisClient>();

/**
 * Warns once per client whose options let a command wait far longer than a lock wait: the
 * adapters cannot change the user's client, but they must not let it fail silently slow.
 */
export function warnOnSlowFailure(client: RedisClient, logger: Logger): void {
  if (checked.has(client)) return;
  checked.add(client);
  const options = connectionOptions(client);
  if (options.commandTimeout === undefined) {
    logger.warn(
      'the ioredis client has no commandTimeout: a command on a connection that died silently waits until the OS gives up (minutes). Merge RECOMMENDED_REDIS_OPTIONS (RECOMMENDED_CLUSTER_OPTIONS for a Cluster) from @datadriver/redis into its options.',
    );
  }
  if (client.isCluster && (client as Cluster).options.scaleReads !== 'master') {
    logger.warn(
      "the ioredis Cluster reads from replicas (scaleReads is not 'master'): the store's reads may miss the latest write and its updates then conflict. Keep scaleReads: 'master' (RECOMMENDED_CLUSTER_OPTIONS).",
    );
  }
  if (options.maxRetriesPerRequest === null) {
    logger.warn(
      'the ioredis client has maxRetriesPerRequest: null: while Redis is down, commands queue for ever instead of failing. Set it to 1 (RECOMMENDED_REDIS_OPTIONS).',
    );
  }
}

/** Clients of stores that wait for replicas, and of presences and messengers (time-bound). */
const waiting = new WeakSet<RedisClient>();
const timeBound = new WeakSet<RedisClient>();
const sharedWarned = new WeakSet<RedisClient>();

function warnShared(client: RedisClient, logger: Logger): void {
  if (sharedWarned.has(client)) return;
  sharedWarned.add(client);
  logger.warn(
    'a RedisStore with waitForReplicas shares its ioredis client with a RedisPresence or RedisMessenger: each WAIT holds the connection until a replica answers (up to replicaWaitMs), and presence beats and handoff messages queue behind it. Give that store a client of its own.',
  );
}

/** Notes a store's client that waits for replicas; warns when presence or messages share it. */
export function noteReplicaWait(client: RedisClient, logger: Logger): void {
  waiting.add(client);
  if (timeBound.has(client)) warnShared(client, logger);
}

/** Notes a presence's or messenger's client; warns when a replica-waiting store shares it. */
export function noteTimeBound(client: RedisClient, logger: Logger): void {
  timeBound.add(client);
  if (waiting.has(client)) warnShared(client, logger);
}
