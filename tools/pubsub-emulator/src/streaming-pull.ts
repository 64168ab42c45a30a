import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { Broker } from './broker.js';
import { type GrpcError, invalidArgument, toStatus } from './grpc-errors.js';
import type {
  ReceivedMessage,
  StreamingPullRequest,
  StreamingPullResponse,
} from './proto-shapes.js';
import type { Consumer, SubscriptionState } from './subscription-state.js';

type StreamingPullCall = ServerDuplexStream<StreamingPullRequest, StreamingPullResponse>;

/**
 * One StreamingPull stream. The first request names the subscription; every
 * request may carry acks, deadline changes and a new stream ack deadline. The
 * Node client acks over unary RPCs and only sends keep-alives ({}) here, but
 * other clients ack on the stream, so both are honoured.
 */
class StreamSession implements Consumer {
  ackDeadlineSeconds: number;
  private readonly maxOutstanding: number;

  constructor(
    private readonly state: SubscriptionState,
    private readonly call: StreamingPullCall,
    first: StreamingPullRequest,
  ) {
    this.ackDeadlineSeconds = checkStreamDeadline(first.streamAckDeadlineSeconds);
    this.maxOutstanding = Number(first.maxOutstandingMessages ?? 0);
  }

  /** Server-side flow control: the client relies on it unless it uses legacy flow control. */
  capacity(outstanding: number): number {
    return this.maxOutstanding > 0 ? this.maxOutstanding - outstanding : Number.POSITIVE_INFINITY;
  }

  deliver(messages: ReceivedMessage[]): void {
    this.call.write({
      receivedMessages: messages,
      subscriptionProperties: {
        exactlyOnceDeliveryEnabled: false,
        messageOrderingEnabled: this.state.resource.enableMessageOrdering ?? false,
      },
    });
  }

  close(reason: GrpcError): void {
    this.call.emit('error', toStatus(reason));
  }

  apply(request: StreamingPullRequest): void {
    // 0 on a later request (e.g. a keep-alive) means "unchanged".
    if (request.streamAckDeadlineSeconds !== 0) {
      this.ackDeadlineSeconds = checkStreamDeadline(request.streamAckDeadlineSeconds);
    }
    if (request.ackIds.length > 0) this.state.acknowledge(request.ackIds);
    const { modifyDeadlineAckIds: ackIds, modifyDeadlineSeconds: seconds } = request;
    if (ackIds.length !== seconds.length) {
      throw invalidArgument('modify_deadline_ack_ids and modify_deadline_seconds differ in length');
    }
    for (const [i, ackId] of ackIds.entries()) {
      this.state.modifyAckDeadline([ackId], seconds[i] ?? 0);
    }
  }

  detach(): void {
    this.state.detach(this);
  }
}

/**
 * Google rejects stream deadlines outside 10..600 s. The Node client sends its
 * own lease length here, so a subscriber `maxAckDeadline` under 10 s fails.
 */
function checkStreamDeadline(seconds: number): number {
  if (seconds >= 10 && seconds <= 600) return seconds;
  throw invalidArgument('stream_ack_deadline_seconds must be between 10 and 600 seconds');
}

export function handleStreamingPull(broker: Broker, call: StreamingPullCall): void {
  let session: StreamSession | undefined;
  const stop = (): void => session?.detach();
  call.on('data', (request: StreamingPullRequest) => {
    try {
      if (!session) {
        const state = broker.subscription(request.subscription);
        session = new StreamSession(state, call, request);
        session.apply(request);
        state.attach(session);
      } else {
        session.apply(request);
      }
    } catch (error) {
      stop();
      call.emit('error', toStatus(error));
    }
  });
  call.on('end', () => {
    stop();
    call.end();
  });
  call.on('cancelled', stop);
  call.on('error', stop);
}
