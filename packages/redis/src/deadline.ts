/**
 * A bound on each call to a Cluster client. While no node answers, ioredis's `Cluster` holds
 * commands in an offline queue of its own, which neither `commandTimeout` nor
 * `maxRetriesPerRequest` bounds (they apply once a command is sent to a node): without this a
 * call made during a full outage would wait until the cluster came back, and run then. A
 * standalone client is bounded by those options already and gets no deadline here.
 */
import type { Cluster } from 'ioredis';
import { RECOMMENDED_REDIS_OPTIONS, type RedisClient } from './client.js';
import { forget, refuseQueued, watchQueue } from './offline-queue.js';

/** What a call that outlived its deadline rejects with; read as `Data.Unavailable`. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';

  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms (the Redis Cluster client is still waiting for a node)`);
  }
}

/** What a call rejects with at once while the Cluster client has lost the cluster. */
export class OfflineError extends Error {
  override readonly name = 'OfflineError';

  constructor(readonly status: string) {
    super(`the Redis Cluster client has no connection to the cluster (status ${status})`);
  }
}

/**
 * The deadline of each call to `client` (ms): a Cluster's node `commandTimeout`, or the
 * recommended one when it has none; `undefined` for a standalone client. Called by each
 * adapter's constructor, it also notes a Cluster client's offline queue for `within`.
 */
export function deadlineOf(client: RedisClient): number | undefined {
  if (!client.isCluster) return undefined;
  watchQueue(client as Cluster);
  const options = (client as Cluster).options.redisOptions ?? {};
  return options.commandTimeout ?? RECOMMENDED_REDIS_OPTIONS.commandTimeout;
}

/** Whether a call's command may wait in the offline queue past its deadline. */
export type Queueing = 'drop' | 'keep';

/**
 * `call`, or a `DeadlineError` once `ms` have passed without its answer. Its command does not
 * outlive a failure in the Cluster client's offline queue: queued while the client has lost
 * the cluster, it is taken out at once (an `OfflineError`); queued while it connects, it is
 * taken out when the call fails. So a call that failed does not run later. Only `'keep'`
 * (subscriptions, which the client makes again once the cluster is back) leaves it queued.
 */
export function within<T>(
  ms: number | undefined,
  call: Promise<T>,
  queueing: Queueing = 'drop',
): Promise<T> {
  if (ms === undefined) return call;
  if (queueing === 'drop' && refuseQueued(call, (status) => new OfflineError(status))) return call;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms)), ms);
  });
  const bounded = Promise.race([call, deadline]).finally(() => clearTimeout(timer));
  if (queueing === 'keep') return bounded;
  // Failed by the deadline or by ioredis (its own `commandTimeout` may come first): either way
  // the caller has its answer, and the command must not run later.
  return bounded.catch((error: unknown) => {
    forget(call, new DeadlineError(ms));
    throw error;
  });
}
