/**
 * DynamoDB failures in DataDriver's terms. The SDK reports a service error by its `name`
 * (`ConditionalCheckFailedException`), a network failure by a Node `code` (`ECONNREFUSED`),
 * and may wrap either in another error's `cause` (or an `AggregateError`'s `errors`), so the
 * whole chain is walked and the first link that says something definite wins.
 */
import { DataDriverError, describeError, ErrorCode } from '@datadriver/core/ports';

/** What went wrong, as far as DataDriver's error codes care. */
export type DynamoFailureKind =
  | 'conflict'
  | 'throttled'
  | 'too-large'
  | 'misconfigured'
  | 'unavailable'
  | 'failed';

const NAMES: ReadonlyMap<string, DynamoFailureKind> = new Map([
  ['ConditionalCheckFailedException', 'conflict'],
  ['TransactionConflictException', 'conflict'],
  // The SDK's own list of throttling names, as far as DynamoDB can send them.
  ['ProvisionedThroughputExceededException', 'throttled'],
  ['ThrottlingException', 'throttled'],
  ['Throttling', 'throttled'],
  ['RequestLimitExceeded', 'throttled'],
  ['TooManyRequestsException', 'throttled'],
  ['LimitExceededException', 'throttled'],
  ['ItemCollectionSizeLimitExceededException', 'too-large'],
  ['ResourceNotFoundException', 'misconfigured'],
  ['UnrecognizedClientException', 'misconfigured'],
  ['InvalidSignatureException', 'misconfigured'],
  ['IncompleteSignatureException', 'misconfigured'],
  ['MissingAuthenticationTokenException', 'misconfigured'],
  ['AccessDeniedException', 'misconfigured'],
  ['ExpiredTokenException', 'misconfigured'],
  ['CredentialsProviderError', 'misconfigured'],
  ['TokenProviderError', 'misconfigured'],
  // The SDK resent a transaction whose first attempt is still running: its outcome is unknown.
  ['TransactionInProgressException', 'unavailable'],
  ['TimeoutError', 'unavailable'],
  ['RequestTimeout', 'unavailable'],
  ['RequestTimeoutException', 'unavailable'],
  ['ServiceUnavailable', 'unavailable'],
  ['ServiceUnavailableException', 'unavailable'],
]);

/**
 * Why DynamoDB cancelled a transaction, one code per action (`None` for an action that was
 * fine); the first definite one is the transaction's kind.
 */
const CANCELLATION_CODES: ReadonlyMap<string, DynamoFailureKind> = new Map([
  ['ConditionalCheckFailed', 'conflict'],
  ['TransactionConflict', 'conflict'],
  ['ThrottlingError', 'throttled'],
  ['ProvisionedThroughputExceeded', 'throttled'],
  ['RequestLimitExceeded', 'throttled'],
  ['ItemCollectionSizeLimitExceeded', 'too-large'],
]);

const NODE_CODES: ReadonlyMap<string, DynamoFailureKind> = new Map([
  ['ECONNREFUSED', 'unavailable'],
  ['ECONNRESET', 'unavailable'],
  ['ECONNABORTED', 'unavailable'],
  ['EPIPE', 'unavailable'],
  ['ETIMEDOUT', 'unavailable'],
  ['EHOSTUNREACH', 'unavailable'],
  ['ENETUNREACH', 'unavailable'],
  ['EAI_AGAIN', 'unavailable'],
  // A host name that does not resolve at all is a wrong endpoint or region, not an outage.
  ['ENOTFOUND', 'misconfigured'],
]);

const CODES: Readonly<Record<Exclude<DynamoFailureKind, 'failed'>, ErrorCode>> = {
  conflict: ErrorCode.Conflict,
  throttled: ErrorCode.Throttled,
  'too-large': ErrorCode.TooLarge,
  misconfigured: ErrorCode.Misconfigured,
  unavailable: ErrorCode.Unavailable,
};

interface ErrorLike {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
  readonly CancellationReasons?: readonly { readonly Code?: string; readonly Message?: string }[];
  readonly $metadata?: { readonly httpStatusCode?: number; readonly requestId?: string };
}

/** The kind of the first link in `error`'s cause chain that has a definite one. */
export function classifyDynamoError(error: unknown): DynamoFailureKind {
  for (const link of causeChain(error)) {
    const kind = classifyOne(link);
    if (kind !== 'failed') return kind;
  }
  return 'failed';
}

/** The AWS error name found in the chain (for messages and details), if any. */
export function awsErrorName(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const name = link.name;
    // A network failure carries the SDK's metadata too, under the plain name "Error".
    if (typeof name === 'string' && name !== 'Error' && (NAMES.has(name) || link.$metadata)) {
      return name;
    }
  }
  return undefined;
}

/** What the failed call was doing, for the message a user reads. */
export interface FailedCall {
  /** `read`, `write`, `delete`, `presence read`... */
  readonly operation: string;
  /** The record's key; none for a call on the table itself. */
  readonly key?: string;
  readonly tableName: string;
}

/**
 * The `DataDriverError` for a failed DynamoDB call, keeping the SDK's error as `cause`.
 * A `DataDriverError` passes through unchanged.
 */
export function translateDynamoError(error: unknown, call: FailedCall): DataDriverError {
  if (DataDriverError.isInstance(error)) return error;
  const kind = classifyDynamoError(error);
  const name = awsErrorName(error);
  const details = {
    ...call,
    ...(name === undefined ? {} : { awsError: name }),
    ...requestIdOf(error),
  };
  const code = kind === 'failed' ? ErrorCode.BackendFailed : CODES[kind];
  return new DataDriverError(code, `${explain(kind, call, name)}: ${describeError(error)}`, {
    cause: error,
    details,
  });
}

function explain(kind: DynamoFailureKind, call: FailedCall, name: string | undefined): string {
  const of = call.key === undefined ? '' : ` of ${call.key}`;
  const what = `the DynamoDB ${call.operation}${of} in table ${call.tableName}`;
  switch (kind) {
    case 'conflict':
      return `${what} conflicted with a concurrent write`;
    case 'throttled':
      return `${what} was throttled`;
    case 'too-large':
      return `${what} was refused as too large; nothing was written`;
    case 'misconfigured':
      return name === 'ResourceNotFoundException'
        ? `${what} failed: the table does not exist (create it with ensureTable(), see the README)`
        : `${what} failed: check the table, key attribute, credentials, region and endpoint`;
    case 'unavailable':
      return `${what} failed: DynamoDB could not be reached`;
    case 'failed':
      return `${what} failed`;
  }
}

function classifyOne(link: ErrorLike): DynamoFailureKind {
  if (typeof link.name === 'string') {
    if (link.name === 'ValidationException') return validationKind(link.message);
    if (link.name === 'TransactionCanceledException') return cancellationKind(link);
    const kind = NAMES.get(link.name);
    if (kind) return kind;
  }
  if (typeof link.code === 'string') return NODE_CODES.get(link.code) ?? 'failed';
  if (link.$metadata?.httpStatusCode === 429) return 'throttled';
  if (link.$metadata?.httpStatusCode === 503) return 'unavailable';
  return 'failed';
}

/** DynamoDB reports both an oversized item and a wrong key schema as a ValidationException. */
function validationKind(message: unknown): DynamoFailureKind {
  return typeof message === 'string' && /item size/i.test(message) ? 'too-large' : 'misconfigured';
}

/** A cancelled transaction is what its first failing action says. */
function cancellationKind(link: ErrorLike): DynamoFailureKind {
  for (const reason of link.CancellationReasons ?? []) {
    if (reason.Code === 'ValidationError') return validationKind(reason.Message);
    const kind = reason.Code === undefined ? undefined : CANCELLATION_CODES.get(reason.Code);
    if (kind) return kind;
  }
  return 'failed';
}

function* causeChain(error: unknown, depth = 0): Generator<ErrorLike> {
  if (depth > 10 || typeof error !== 'object' || error === null) return;
  const link = error as ErrorLike;
  yield link;
  if (Array.isArray(link.errors)) {
    for (const inner of link.errors) yield* causeChain(inner, depth + 1);
  }
  yield* causeChain(link.cause, depth + 1);
}

function requestIdOf(error: unknown): { requestId?: string } {
  for (const link of causeChain(error)) {
    const requestId = link.$metadata?.requestId;
    if (typeof requestId === 'string') return { requestId };
  }
  return {};
}
