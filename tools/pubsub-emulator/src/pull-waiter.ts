import type { EventEmitter } from 'node:events';
import type { GrpcError } from './grpc-errors.js';
import type { ReceivedMessage } from './proto-shapes.js';
import type { Consumer, SubscriptionState } from './subscription-state.js';

/**
 * How long a unary Pull without returnImmediately waits for a message. Google
 * holds such calls open for a while too; short enough here that a test using
 * Pull against an empty subscription is not slowed much.
 */
const PULL_WAIT_MS = 2_000;

/** Parks a unary Pull as a one-shot consumer until messages arrive or time runs out. */
export function waitForMessages(
  state: SubscriptionState,
  max: number,
  ackDeadlineSeconds: number,
  /** The gRPC call; its 'cancelled' event ends the wait early. */
  call: EventEmitter,
): Promise<ReceivedMessage[]> {
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (outcome: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      state.detach(waiter);
      outcome();
    };
    const waiter: Consumer = {
      ackDeadlineSeconds,
      capacity: () => (done ? 0 : max),
      deliver: (messages) => settle(() => resolve(messages)),
      close: (reason: GrpcError) => settle(() => reject(reason)),
    };
    const timer = setTimeout(() => settle(() => resolve([])), PULL_WAIT_MS);
    call.once('cancelled', () => settle(() => resolve([])));
    state.attach(waiter);
  });
}
