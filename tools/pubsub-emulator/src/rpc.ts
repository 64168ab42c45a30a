import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { toStatus } from './grpc-errors.js';

export type UnaryHandler<Req, Res> = (
  call: ServerUnaryCall<Req, Res>,
  callback: sendUnaryData<Res>,
) => void;

/**
 * Adapts a plain (possibly async) function to a grpc-js unary handler, so
 * service code can just return values and throw GrpcErrors.
 */
export function unary<Req, Res>(
  handler: (request: Req, call: ServerUnaryCall<Req, Res>) => Res | Promise<Res>,
): UnaryHandler<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => handler(call.request, call))
      .then(
        (response) => callback(null, response),
        (error: unknown) => callback(toStatus(error)),
      );
  };
}

/** The google.protobuf.Empty response. */
export const EMPTY: Record<string, never> = {};
