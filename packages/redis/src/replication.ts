/**
 * Writes acknowledged by replicas too. Redis replicates asynchronously: a master that dies
 * right after acknowledging a write can take the write with it, and the replica promoted in its
 * place never saw it. With `waitForReplicas`, each compare-and-set goes out in one pipeline with
 * a `WAIT` behind it, on the same connection, so `WAIT` counts the replicas that have this very
 * write; the store acknowledges it only once enough do.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';
import type { RedisClient } from './client.js';
import { coalesceTick } from './coalesce.js';
import { within } from './deadline.js';
import { isNoScript } from './errors.js';
import type { LuaScript } from './scripts.js';

/** How many replicas must have each write, and how long a write waits for them (ms). */
export interface ReplicaWait {
  readonly replicas: number;
  readonly timeoutMs: number;
}

/** How long a write waits for its replicas when `replicaWaitMs` is not given (ms). */
export const DEFAULT_REPLICA_WAIT_MS = 1_000;

/** The wait the options ask for, checked; `undefined` when writes wait for no replica. */
export function replicaWaitOf(
  replicas: number | undefined,
  timeoutMs = DEFAULT_REPLICA_WAIT_MS,
): ReplicaWait | undefined {
  if (replicas === undefined || replicas === 0) return undefined;
  if (!Number.isInteger(replicas) || replicas < 0) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `waitForReplicas must be a whole number of replicas, got ${String(replicas)}`,
    );
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new DataDriverError(
      ErrorCode.InvalidConfig,
      `replicaWaitMs must be a positive whole number of ms, got ${String(timeoutMs)}`,
    );
  }
  return { replicas, timeoutMs };
}

/**
 * Runs `script` then `WAIT` in one pipeline to the node that owns `keys`: by SHA, and once more
 * with EVAL when that node lacks the script. Resolves to the script's reply and how many
 * replicas acknowledged it; rejects with the script's own error.
 */
export async function runScriptReplicated(
  client: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly string[],
  wait: ReplicaWait,
  deadlineMs?: number,
): Promise<{ reply: unknown; replicas: number }> {
  const send = async (bySha: boolean) => {
    const pipeline = client.pipeline();
    if (bySha) pipeline.evalsha(script.sha, keys.length, ...keys, ...args);
    else pipeline.eval(script.source, keys.length, ...keys, ...args);
    pipeline.wait(wait.replicas, wait.timeoutMs);
    coalesceTick(client);
    const results = await within(
      deadlineMs === undefined ? undefined : deadlineMs + wait.timeoutMs,
      pipeline.exec(),
    );
    if (!results) throw new Error('Connection is closed.');
    return results;
  };
  let results = await send(true);
  if (isNoScript(results[0]?.[0])) results = await send(false);
  const [[scriptError, reply] = [], [waitError, replicas] = []] = results;
  if (scriptError) throw scriptError;
  if (waitError) throw waitError;
  return { reply, replicas: Number(replicas) };
}

/** The error for a write its master has, but fewer replicas than asked within the wait. */
export function underReplicated(
  redisKey: string,
  wait: ReplicaWait,
  replicas: number,
): DataDriverError {
  return new DataDriverError(
    ErrorCode.Unavailable,
    `redis update of ${redisKey}: written on its master, but ${replicas} of ${wait.replicas} replica${wait.replicas > 1 ? 's' : ''} acknowledged it within ${wait.timeoutMs} ms, so a failover now could lose it`,
    { details: { operation: 'update', target: redisKey, replicas, wanted: wait.replicas } },
  );
}
