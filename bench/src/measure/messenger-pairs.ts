/**
 * Messengers on one bus, each with its own connection, as separate servers would have: the
 * message legs of the physical limit send on one and receive on another.
 */
import type { Messenger } from '@datadriver/core';
import { PubSubMessenger } from '@datadriver/pubsub';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger } from '@datadriver/redis';
import { PubSub } from '@google-cloud/pubsub';
import { Redis } from 'ioredis';
import { PUBSUB_PROJECT } from '../backends.js';
import { quietLogger } from '../quiet-logger.js';
import { postgresMessenger } from './postgres-ports.js';

export type Bus =
  | { readonly kind: 'redis'; readonly url: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | {
      readonly kind: 'pubsub';
      readonly endpoint: string;
    };

export interface OwnMessenger {
  readonly messenger: Messenger;
  close(): Promise<void>;
}

export interface MessengerPair {
  readonly sender: Messenger;
  readonly receiver: Messenger;
  close(): Promise<void>;
}

/** A messenger on `bus` with a connection of its own. */
export function messengerOn(bus: Bus): OwnMessenger {
  if (bus.kind === 'postgres') return postgresMessenger(bus.url);
  if (bus.kind === 'redis') {
    const client = new Redis(bus.url, RECOMMENDED_REDIS_OPTIONS);
    const messenger = new RedisMessenger({ client, logger: quietLogger });
    return {
      messenger,
      close: async () => {
        await messenger.close().catch(() => undefined);
        client.disconnect();
      },
    };
  }
  const client = new PubSub({ projectId: PUBSUB_PROJECT, apiEndpoint: bus.endpoint });
  const messenger = new PubSubMessenger({ client, logger: quietLogger });
  return {
    messenger,
    close: async () => {
      await messenger.destroy().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

export function messengerPair(bus: Bus): MessengerPair {
  const [sender, receiver] = [messengerOn(bus), messengerOn(bus)];
  return {
    sender: sender.messenger,
    receiver: receiver.messenger,
    close: async () => {
      await Promise.all([sender.close(), receiver.close()]);
    },
  };
}
