export { encodeTopic, TOPIC_ATTRIBUTE } from './addressing.js';
export type { PubSubMessengerOptions } from './options.js';
export { PubSubMessenger } from './pubsub-messenger.js';
export type { PubSubSubscription } from './pubsub-subscription.js';
