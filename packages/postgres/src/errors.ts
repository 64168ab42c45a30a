/**
 * What node-postgres and PostgreSQL throw, in DataDriver's codes, keeping the original as
 * `cause`: one table, so the store, the presence and the messenger say the same thing.
 * PostgreSQL names each failure by a five-character SQLSTATE whose first two characters are its
 * class; node-postgres reports a connection it lost or could not make by Node's socket codes
 * or by its own messages.
 */
import { DataDriverError, describeError, ErrorCode } from '@datadriver/core/ports';

/** Whole SQLSTATE codes that say more than their class. */
const SQLSTATES: ReadonlyMap<string, ErrorCode> = new Map([
  // The server is shutting down, crashed, or is starting up: it cannot serve now.
  ['57P01', ErrorCode.Unavailable],
  ['57P02', ErrorCode.Unavailable],
  ['57P03', ErrorCode.Unavailable],
  // statement_timeout or a cancel: the statement did not finish in time (it did not commit).
  ['57014', ErrorCode.Timeout],
  // lock_timeout, idle_in_transaction_session_timeout.
  ['55P03', ErrorCode.Timeout],
  ['25P03', ErrorCode.Timeout],
  // A value past a server limit: NOTIFY's 8000-byte payload, a row past 1 GB.
  ['54000', ErrorCode.TooLarge],
  ['54001', ErrorCode.TooLarge],
  ['22023', ErrorCode.TooLarge], // invalid_parameter_value: pg_notify's "payload string too long"
  // The schema's tables or function are missing, or the role may not use them.
  ['42P01', ErrorCode.Misconfigured],
  ['42883', ErrorCode.Misconfigured],
  ['3F000', ErrorCode.Misconfigured],
  ['42501', ErrorCode.Misconfigured],
  // Too many connections: the server refuses for lack of capacity.
  ['53300', ErrorCode.Throttled],
]);

/** SQLSTATE classes. */
const CLASSES: ReadonlyMap<string, ErrorCode> = new Map([
  ['08', ErrorCode.Unavailable], // connection exception
  ['53', ErrorCode.Throttled], // insufficient resources (disk full, out of memory)
  ['28', ErrorCode.Misconfigured], // invalid authorization (password, pg_hba.conf)
  ['3D', ErrorCode.Misconfigured], // no such database
]);

/** Node's socket errors: the server could not be reached. */
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

/** node-postgres's own words for a connection lost, closed or never made in time. */
const CONNECTION_MESSAGES: ReadonlyArray<readonly [RegExp, ErrorCode]> = [
  [/^Connection terminated/, ErrorCode.Unavailable],
  [/^Client has encountered a connection error and is not queryable/, ErrorCode.Unavailable],
  [/^Client was closed and is not queryable/, ErrorCode.Unavailable],
  [/timeout exceeded when trying to connect/, ErrorCode.Unavailable],
  [/^Connection timeout|^connection timeout/, ErrorCode.Unavailable],
  // query_timeout: the client stopped waiting; the statement may still commit.
  [/^Query read timeout/, ErrorCode.Timeout],
];

/** The DataDriver code for a failure of a PostgreSQL call. */
export function codeOf(error: unknown): ErrorCode {
  if (!(error instanceof Error)) return ErrorCode.BackendFailed;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code)) return ErrorCode.Unavailable;
    if (/^[0-9A-Z]{5}$/.test(code)) {
      return SQLSTATES.get(code) ?? CLASSES.get(code.slice(0, 2)) ?? ErrorCode.BackendFailed;
    }
  }
  const known = CONNECTION_MESSAGES.find(([pattern]) => pattern.test(error.message));
  if (known) return known[1];
  // A pool's connect() rejects with an AggregateError of each address it tried.
  if (error instanceof AggregateError && error.errors.length > 0) return codeOf(error.errors[0]);
  return ErrorCode.BackendFailed;
}

/**
 * `error` as a DataDriverError: one already is stays as it is; anything else gets its code
 * from `codeOf` and is kept as `cause`. `operation` names the call ("update", "publish").
 */
export function toPostgresError(
  error: unknown,
  operation: string,
  target: string,
): DataDriverError {
  if (DataDriverError.isInstance(error)) return error;
  return new DataDriverError(
    codeOf(error),
    `postgres ${operation} of ${target} failed: ${describeError(error)}`,
    { cause: error, details: { operation, target } },
  );
}
