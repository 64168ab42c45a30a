import { DataDriverError, describeError, ErrorCode } from '@datadriver/core/ports';
import { GrpcCode, grpcCodeOf } from './grpc-codes.js';

/** What each gRPC code means for a caller, and a hint at the usual fix. */
const MEANINGS: ReadonlyMap<number, { readonly code: ErrorCode; readonly hint: string }> = new Map([
  [GrpcCode.Unavailable, { code: ErrorCode.Unavailable, hint: 'Pub/Sub could not be reached' }],
  [
    GrpcCode.DeadlineExceeded,
    { code: ErrorCode.Timeout, hint: 'no answer within timeoutSeconds, retries included' },
  ],
  [
    GrpcCode.NotFound,
    {
      code: ErrorCode.Misconfigured,
      hint: 'the topic or subscription does not exist (createTopic: false needs the topic made beforehand)',
    },
  ],
  [
    GrpcCode.PermissionDenied,
    { code: ErrorCode.Misconfigured, hint: 'the client lacks an IAM permission (see the README)' },
  ],
  [
    GrpcCode.Unauthenticated,
    { code: ErrorCode.Misconfigured, hint: "the client's credentials were refused" },
  ],
]);

/**
 * A client failure as a `DataDriverError`, keeping the client's error as `cause` and its gRPC
 * code in `details.grpcCode`: 14 Unavailable, 4 Timeout, 5/7/16 Misconfigured, any other
 * BackendFailed. A DataDriverError passes through unchanged.
 */
export function toMessengerError(error: unknown, action: string): DataDriverError {
  if (DataDriverError.isInstance(error)) return error;
  const grpcCode = grpcCodeOf(error);
  const meaning = grpcCode === undefined ? undefined : MEANINGS.get(grpcCode);
  const hint = meaning ? ` (${meaning.hint})` : '';
  return new DataDriverError(
    meaning?.code ?? ErrorCode.BackendFailed,
    `${action} failed${hint}: ${describeError(error)}`,
    { cause: error, details: grpcCode === undefined ? {} : { grpcCode } },
  );
}
