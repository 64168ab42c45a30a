import type { ServerDuplexStream, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Broker } from './broker.js';
import { invalidArgument } from './grpc-errors.js';
import type {
  AcknowledgeRequest,
  ListRequest,
  ModifyAckDeadlineRequest,
  NameRequest,
  PullRequest,
  StreamingPullRequest,
  StreamingPullResponse,
  SubscriptionResource,
  UpdateSubscriptionRequest,
} from './proto-shapes.js';
import { waitForMessages } from './pull-waiter.js';
import { EMPTY, unary } from './rpc.js';
import { handleStreamingPull } from './streaming-pull.js';

/** google.pubsub.v1.Subscriber; methods not listed answer UNIMPLEMENTED. */
export function subscriberService(broker: Broker): UntypedServiceImplementation {
  return {
    CreateSubscription: unary((resource: SubscriptionResource) =>
      broker.createSubscription(resource),
    ),
    GetSubscription: unary(
      (request: NameRequest) => broker.subscription(request.subscription ?? '').resource,
    ),
    UpdateSubscription: unary((request: UpdateSubscriptionRequest) =>
      broker.updateSubscription(request.subscription, request.updateMask?.paths ?? []),
    ),
    DeleteSubscription: unary((request: NameRequest) => {
      broker.deleteSubscription(request.subscription ?? '');
      return EMPTY;
    }),
    ListSubscriptions: unary((request: ListRequest) => ({
      subscriptions: broker.listSubscriptions(request.project ?? ''),
      nextPageToken: '',
    })),
    Acknowledge: unary((request: AcknowledgeRequest) => {
      requireAckIds(request.ackIds);
      broker.subscription(request.subscription).acknowledge(request.ackIds);
      return EMPTY;
    }),
    ModifyAckDeadline: unary((request: ModifyAckDeadlineRequest) => {
      requireAckIds(request.ackIds);
      const state = broker.subscription(request.subscription);
      state.modifyAckDeadline(request.ackIds, request.ackDeadlineSeconds);
      return EMPTY;
    }),
    Pull: unary(async (request: PullRequest, call) => {
      const state = broker.subscription(request.subscription);
      if (request.maxMessages <= 0) throw invalidArgument('max_messages must be positive.');
      const ready = state.take(request.maxMessages);
      if (ready.length > 0 || request.returnImmediately) return { receivedMessages: ready };
      const deadline = state.resource.ackDeadlineSeconds ?? 10;
      return {
        receivedMessages: await waitForMessages(state, request.maxMessages, deadline, call),
      };
    }),
    StreamingPull: (call: ServerDuplexStream<StreamingPullRequest, StreamingPullResponse>) =>
      handleStreamingPull(broker, call),
  };
}

function requireAckIds(ackIds: readonly string[]): void {
  if (ackIds.length === 0) throw invalidArgument('No ack ids specified.');
}
