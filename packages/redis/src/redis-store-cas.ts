/**
 * The store's one write: a compare-and-set script (scripts.ts) on a record's version, sent
 * with its keys and arguments, and its reply read: written, or the version moved and the
 * reply carries the record stored now, so the caller re-runs its transform without a read.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core/ports';
import type { RedisClient } from './client.js';
import { toRedisError } from './errors.js';
import { versionKeys } from './keys.js';
import { type ReplicaWait, runScriptReplicated, underReplicated } from './replication.js';
import type { RetentionArgs } from './retention.js';
import {
  CONFLICT,
  compareAndSetFor,
  FOREIGN,
  FOREIGN_VERSIONS,
  runScriptAs,
  WRITTEN,
} from './scripts.js';
import { foreign, type Snapshot } from './stored-record.js';

/** The keys and arguments of one compare-and-set. */
export interface CasWrite {
  /** The record's key first, then its versions keys when the write keeps a version. */
  readonly keys: readonly [record: string, ...versions: string[]];
  readonly args: readonly string[];
}

/** What a compare-and-set did: wrote, or found the version moved and carried the current back. */
export type CasOutcome =
  | { readonly written: true }
  | { readonly written: false; readonly current: Snapshot | undefined };

/**
 * The compare-and-set that writes `json` (or deletes, for '') where the version is still
 * `seen` ('' for no record), stamping `version`: on the record alone, or with its versions keys
 * and `retention` when it keeps a version (never for a delete). `redisKey`: the record's own
 * name (`recordKey(prefix, key)`), which the caller has made already.
 */
export function casWrite(
  prefix: string,
  key: string,
  redisKey: string,
  write: {
    readonly seen: string;
    readonly version: string;
    readonly json: string;
    readonly retention: RetentionArgs | undefined;
  },
): CasWrite {
  const args = [write.seen, write.version, write.json];
  if (write.retention === undefined || write.json === '') return { keys: [redisKey], args };
  const { index, records } = versionKeys(prefix, key);
  return { keys: [redisKey, index, records], args: [...args, ...write.retention] };
}

/** The outcome of every write that landed: one object, not one per write. */
const WROTE: CasOutcome = { written: true };

/** Sends compare-and-sets on one client, with a WAIT behind each when the store waits for replicas. */
export class CompareAndSet {
  constructor(
    private readonly client: RedisClient,
    private readonly replicaWait: ReplicaWait | undefined,
    private readonly deadlineMs: number | undefined,
  ) {}

  /** Runs `write`: it landed, or the version had moved and the reply carries the current one. */
  run({ keys, args }: CasWrite): Promise<CasOutcome> {
    // A promise chain, not an async function: every write runs it (one promise fewer each).
    const redisKey = keys[0];
    const failed = (error: unknown): never => {
      throw toRedisError(error, 'update', redisKey);
    };
    try {
      const { client, replicaWait, deadlineMs } = this;
      if (replicaWait) {
        return runScriptReplicated(
          client,
          compareAndSetFor(keys),
          keys,
          args,
          replicaWait,
          deadlineMs,
        ).then(({ reply, replicas }) => this.outcome(keys, reply, replicas), failed);
      }
      return runScriptAs(
        client,
        compareAndSetFor(keys),
        { keys, args, deadlineMs },
        (reply) => this.outcome(keys, reply, undefined),
        failed,
      );
    } catch (error) {
      return Promise.reject(toRedisError(error, 'update', redisKey));
    }
  }

  /** What the script's `reply` says the write did. */
  private outcome(
    [redisKey, index]: CasWrite['keys'],
    reply: unknown,
    replicas: number | undefined,
  ): CasOutcome {
    // A status alone is a number; only a conflict that carries the record is a table.
    const fields = Array.isArray(reply) ? (reply as readonly unknown[]) : undefined;
    const status: unknown = fields === undefined ? reply : fields[0];
    const wait = this.replicaWait;
    if (status === WRITTEN && wait && (replicas ?? 0) < wait.replicas) {
      throw underReplicated(redisKey, wait, replicas ?? 0);
    }
    if (status === WRITTEN) return WROTE;
    if (status === CONFLICT && fields === undefined) return { written: false, current: undefined };
    if (status === CONFLICT && fields?.length === 3) {
      const [, version, json] = fields;
      if (typeof version === 'string' && typeof json === 'string') {
        return { written: false, current: { version, json } };
      }
    }
    if (status === FOREIGN) throw foreign(redisKey, 'a hash without a version and record');
    if (status === FOREIGN_VERSIONS) {
      throw foreign(index ?? redisKey, `not where the versions of ${redisKey} can be kept`);
    }
    throw new DataDriverError(
      ErrorCode.BackendFailed,
      `redis update of ${redisKey} failed: unexpected script reply ${JSON.stringify(reply)}`,
      { details: { operation: 'update', target: redisKey } },
    );
  }
}
