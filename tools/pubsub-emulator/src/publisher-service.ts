import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Broker } from './broker.js';
import type { ListRequest, NameRequest, PublishRequest, TopicResource } from './proto-shapes.js';
import { EMPTY, unary } from './rpc.js';

/** google.pubsub.v1.Publisher; methods not listed answer UNIMPLEMENTED. */
export function publisherService(broker: Broker): UntypedServiceImplementation {
  return {
    CreateTopic: unary((topic: TopicResource) => broker.createTopic(topic)),
    GetTopic: unary((request: NameRequest) => broker.getTopic(request.topic ?? '')),
    DeleteTopic: unary((request: NameRequest) => {
      broker.deleteTopic(request.topic ?? '');
      return EMPTY;
    }),
    Publish: unary((request: PublishRequest) => ({
      messageIds: broker.publish(request.topic, request.messages),
    })),
    ListTopics: unary((request: ListRequest) => ({
      topics: broker.listTopics(request.project ?? ''),
      nextPageToken: '',
    })),
    ListTopicSubscriptions: unary((request: ListRequest) => ({
      subscriptions: broker.listTopicSubscriptions(request.topic ?? ''),
      nextPageToken: '',
    })),
  };
}
