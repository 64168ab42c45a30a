/**
 * Translates what ioredis and Redis throw into DataDriver's codes, keeping the original as
 * `cause`. One table, so the store, the messenger and the presence say the same thing.
 */
import { DataDriverError, describeError, ErrorCode } from '@datadriver/core/ports';
import { DeadlineError, OfflineError } from './deadline.js';

/** Redis error prefixes (the reply's first word) and what each means for a caller. */
const REPLY_CODES: Readonly<Record<string, ErrorCode>> = {
  // The server is starting, failing over or busy: it cannot serve now, try again later.
  LOADING: ErrorCode.Unavailable,
  BUSY: ErrorCode.Unavailable,
  MASTERDOWN: ErrorCode.Unavailable,
  CLUSTERDOWN: ErrorCode.Unavailable,
  TRYAGAIN: ErrorCode.Unavailable,
  // A Cluster redirect that reached the caller: the slot is moving or its master has just
  // changed (ioredis follows redirects, so one arrives only when it could not follow it).
  MOVED: ErrorCode.Unavailable,
  ASK: ErrorCode.Unavailable,
  READONLY: ErrorCode.Unavailable,
  NOREPLICAS: ErrorCode.Unavailable,
  // Out of memory: the server refuses writes for lack of capacity.
  OOM: ErrorCode.Throttled,
  // Credentials or ACLs: nothing will work until someone fixes the setup.
  NOAUTH: ErrorCode.Misconfigured,
  WRONGPASS: ErrorCode.Misconfigured,
  NOPERM: ErrorCode.Misconfigured,
  // A Cluster refused keys of several slots in one script: a key layout that cannot keep
  // versions there (see the README's Redis Cluster section), not a passing failure.
  CROSSSLOT: ErrorCode.Misconfigured,
  // A key under our prefix holds another type: someone else's value, never to be overwritten.
  WRONGTYPE: ErrorCode.InvalidRecord,
};

/** Messages of `ERR` replies that name a setup or size problem rather than a failure. */
const ERR_MESSAGES: ReadonlyArray<readonly [RegExp, ErrorCode]> = [
  [/unknown command/i, ErrorCode.Misconfigured],
  [/invalid bulk length|too large|exceeds/i, ErrorCode.TooLarge],
];

/**
 * Node's socket errors: the server could not be reached. ENOTFOUND is among them (DynamoDB
 * calls it Misconfigured): a Redis host can be unresolvable for a while, as a Kubernetes
 * service with no ready pods is, and ioredis keeps reconnecting.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * What ioredis throws when a connection is down, closed or too slow, and what its Cluster
 * client throws while the cluster is failing over or out of reach: to a caller, an outage.
 */
const CONNECTION_MESSAGES = [
  /^Connection is closed/,
  /^Connection is (discarded|aborted)/,
  /^Stream isn't writeable/,
  /^Command timed out/,
  /^Command aborted due to connection close/,
  /^Reached the max retries per request limit/,
  /^None of startup nodes is available/,
  /^Failed to refresh slots cache/,
  /^Too many Cluster redirections/,
  /^Cluster isn't ready/,
  /^Cluster is (disconnected|disconnecting|ended)/,
  /^No (sharded )?subscriber for/,
];

function replyCode(error: Error): ErrorCode | undefined {
  const prefix = error.message.split(' ', 1)[0] ?? '';
  const code = REPLY_CODES[prefix];
  if (code !== undefined || prefix !== 'ERR') return code;
  return ERR_MESSAGES.find(([pattern]) => pattern.test(error.message))?.[1];
}

/** The DataDriver code for a failure of a Redis call. */
export function codeOf(error: unknown): ErrorCode {
  if (!(error instanceof Error)) return ErrorCode.BackendFailed;
  if (error.name === 'ReplyError') return replyCode(error) ?? ErrorCode.BackendFailed;
  if (error instanceof DeadlineError || error instanceof OfflineError) return ErrorCode.Unavailable;
  const socketCode = (error as NodeJS.ErrnoException).code;
  if (socketCode !== undefined && SOCKET_CODES.has(socketCode)) return ErrorCode.Unavailable;
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) {
    return ErrorCode.Unavailable;
  }
  return ErrorCode.BackendFailed;
}

/**
 * `error` as a DataDriverError: one already is stays as it is; anything else gets its code
 * from `codeOf` and is kept as `cause`. `operation` names the call ("update", "publish").
 */
export function toRedisError(error: unknown, operation: string, target: string): DataDriverError {
  if (DataDriverError.isInstance(error)) return error;
  return new DataDriverError(
    codeOf(error),
    `redis ${operation} of ${target} failed: ${describeError(error)}`,
    { cause: error, details: { operation, target } },
  );
}

/** True when Redis lost a script from its cache (restart, failover, SCRIPT FLUSH). */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
