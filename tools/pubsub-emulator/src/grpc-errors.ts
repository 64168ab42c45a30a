import { status } from '@grpc/grpc-js';

/**
 * An error that maps onto a gRPC status. Handlers throw it and the RPC
 * wrappers turn it into the status the client library inspects (it checks
 * `err.code`, e.g. 5 for `exists()` and 6 for "already exists").
 */
export class GrpcError extends Error {
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
    this.name = 'GrpcError';
  }
}

export const notFound = (what: string): GrpcError =>
  new GrpcError(status.NOT_FOUND, `Resource not found (resource=${what}).`);

export const alreadyExists = (what: string): GrpcError =>
  new GrpcError(
    status.ALREADY_EXISTS,
    `Resource already exists in the project (resource=${what}).`,
  );

export const invalidArgument = (why: string): GrpcError =>
  new GrpcError(status.INVALID_ARGUMENT, why);

/** Any thrown value as the `{ code, details }` shape grpc-js sends as a status. */
export function toStatus(error: unknown): { code: status; details: string } {
  if (error instanceof GrpcError) return { code: error.code, details: error.message };
  const details = error instanceof Error ? error.message : String(error);
  return { code: status.INTERNAL, details };
}
