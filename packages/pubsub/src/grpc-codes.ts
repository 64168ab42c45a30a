/**
 * The gRPC status codes this adapter acts on. Spelled out here rather than imported from
 * `@grpc/grpc-js`, which is the client library's dependency, not ours.
 */
export const GrpcCode = {
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  Unavailable: 14,
  Unauthenticated: 16,
} as const;

/** The numeric gRPC code of a client error, looking through `cause` chains; else undefined. */
export function grpcCodeOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; depth < 5; depth += 1) {
    if (typeof current !== 'object' || current === null) return undefined;
    if ('code' in current && typeof current.code === 'number') return current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}
