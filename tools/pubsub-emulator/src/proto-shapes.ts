/**
 * The subset of google.pubsub.v1 messages the emulator reads or writes, as
 * proto-loader decodes them (camelCase, int64 as string, absent message fields
 * as null). Fields we only store and echo back are covered by the index
 * signatures, so unknown-to-us settings survive a round trip.
 */

export interface ProtoDuration {
  seconds?: string | number | null;
  nanos?: number | null;
}

export interface ProtoTimestamp {
  seconds: string;
  nanos: number;
}

export interface PubsubMessage {
  data?: Buffer | Uint8Array | null;
  attributes?: Record<string, string> | null;
  messageId?: string;
  publishTime?: ProtoTimestamp | null;
  orderingKey?: string;
}

export interface ReceivedMessage {
  ackId: string;
  message: PubsubMessage;
  deliveryAttempt: number;
}

export interface TopicResource {
  name: string;
  [field: string]: unknown;
}

export interface ExpirationPolicy {
  ttl?: ProtoDuration | null;
}

export interface SubscriptionResource {
  name: string;
  topic: string;
  filter?: string;
  ackDeadlineSeconds?: number;
  messageRetentionDuration?: ProtoDuration | null;
  expirationPolicy?: ExpirationPolicy | null;
  enableMessageOrdering?: boolean;
  deadLetterPolicy?: { deadLetterTopic?: string; maxDeliveryAttempts?: number } | null;
  [field: string]: unknown;
}

export interface PublishRequest {
  topic: string;
  messages: PubsubMessage[];
}

export interface NameRequest {
  topic?: string;
  subscription?: string;
}

export interface ListRequest {
  project?: string;
  topic?: string;
  pageSize?: number;
  pageToken?: string;
}

export interface UpdateSubscriptionRequest {
  subscription: SubscriptionResource;
  updateMask?: { paths: string[] } | null;
}

export interface AcknowledgeRequest {
  subscription: string;
  ackIds: string[];
}

export interface ModifyAckDeadlineRequest {
  subscription: string;
  ackIds: string[];
  ackDeadlineSeconds: number;
}

export interface PullRequest {
  subscription: string;
  returnImmediately?: boolean;
  maxMessages: number;
}

export interface StreamingPullRequest {
  subscription: string;
  ackIds: string[];
  modifyDeadlineSeconds: number[];
  modifyDeadlineAckIds: string[];
  streamAckDeadlineSeconds: number;
  clientId?: string;
  maxOutstandingMessages?: string | number;
  maxOutstandingBytes?: string | number;
}

export interface StreamingPullResponse {
  receivedMessages: ReceivedMessage[];
  subscriptionProperties: {
    exactlyOnceDeliveryEnabled: boolean;
    messageOrderingEnabled: boolean;
  };
}
