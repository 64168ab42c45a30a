/**
 * A bound on each call to a Cluster client. While no node answers, ioredis's `Cluster` holds
 * commands in an offline queue of its own, which neither `commandTimeout` nor
 * `maxRetriesPerRequest` bounds (they apply once a command is sent to a node): without this a
 * call made during a full outage would wait until the cluster came back. A standalone client
 * is bounded by those options already and gets no deadline here.
 */
import type { Cluster } from 'ioredis';
import { RECOMMENDED_REDIS_OPTIONS, type RedisClient } from './client.js';

/** What a call that outlived its deadline rejects with; read as `Data.Unavailable`. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';

  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms (the Redis Cluster client is still waiting for a node)`);
  }
}

/**
 * The deadline of each call to `client` (ms): a Cluster's node `commandTimeout`, or the
 * recommended one when it has none; `undefined` for a standalone client.
 */
export function deadlineOf(client: RedisClient): number | undefined {
  if (!client.isCluster) return undefined;
  const options = (client as Cluster).options.redisOptions ?? {};
  return options.commandTimeout ?? RECOMMENDED_REDIS_OPTIONS.commandTimeout;
}

/**
 * `call`, or a `DeadlineError` once `ms` have passed without its answer. The command itself
 * stays queued in the client and may still run later, as a command whose answer was lost may
 * have: the port allows that ("a rejection may or may not have committed").
 */
export function within<T>(ms: number | undefined, call: Promise<T>): Promise<T> {
  if (ms === undefined) return call;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms)), ms);
  });
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}
