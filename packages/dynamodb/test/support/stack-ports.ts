/**
 * The presence and the messenger that a stack puts beside DynamoStore, each server with its
 * own connections: in memory (the store alone under test), on Redis, on DynamoDB itself
 * (DynamoPresence), or on Pub/Sub.
 */
import { randomBytes } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Messenger, type Presence, SystemScheduler } from '@datadriver/core/ports';
import { MemoryMessenger, MemoryPresence } from '@datadriver/core/testing';
import { PubSubMessenger } from '@datadriver/pubsub';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger, RedisPresence } from '@datadriver/redis';
import { PubSub } from '@google-cloud/pubsub';
import { Redis } from 'ioredis';
import { DynamoPresence } from '../../src/index.js';

/** Makes one server's port, given the DynamoDB client that server stores through. */
export interface PortSource<T> {
  readonly name: string;
  make(client: DynamoDBClient): Promise<T>;
  close(): Promise<void>;
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function unique(stem: string): string {
  return `${stem}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export function memoryPresence(): PortSource<Presence> {
  const shared = new MemoryPresence(new SystemScheduler());
  return { name: 'in-memory presence', make: async () => shared, close: async () => undefined };
}

export function memoryMessenger(): PortSource<Messenger> {
  const shared = new MemoryMessenger();
  return { name: 'in-memory messages', make: async () => shared, close: async () => undefined };
}

/** DynamoPresence on `tableName`, through the server's own DynamoDB client. */
export function dynamoPresence(tableName: string): PortSource<Presence> {
  return {
    name: 'DynamoPresence',
    make: async (client) => new DynamoPresence({ client, tableName }),
    close: async () => undefined,
  };
}

/** Redis connections, one per server, under a prefix of their own. */
function redisClients(url: string) {
  const clients: Redis[] = [];
  return {
    prefix: `${unique('dd-dynamo-stack')}:`,
    async open(): Promise<Redis> {
      const client = new Redis(url, RECOMMENDED_REDIS_OPTIONS);
      clients.push(client);
      await client.ping();
      return client;
    },
    async close(): Promise<void> {
      await Promise.all(clients.splice(0).map((client) => client.quit()));
    },
  };
}

export function redisPresence(url: string): PortSource<Presence> {
  const redis = redisClients(url);
  return {
    name: 'Redis presence',
    make: async () =>
      new RedisPresence({ client: await redis.open(), prefix: redis.prefix, logger: quiet }),
    close: () => redis.close(),
  };
}

export function redisMessenger(url: string): PortSource<Messenger> {
  const redis = redisClients(url);
  const messengers: RedisMessenger[] = [];
  return {
    name: 'Redis messages',
    make: async () => {
      const messenger = new RedisMessenger({
        client: await redis.open(),
        prefix: redis.prefix,
        logger: quiet,
      });
      messengers.push(messenger);
      return messenger;
    },
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.close()));
      await redis.close();
    },
  };
}

/**
 * PubSubMessengers on the emulator at `endpoint` (host:port), one client each, on one topic.
 * Each is warmed (a subscription made, a message sent, the subscription deleted) before its
 * server starts, as on a server that has run for a while: a cold client's first calls take
 * tens of ms.
 */
export function pubSubMessenger(endpoint: string): PortSource<Messenger> {
  const topicName = unique('dynamo-stack');
  const clients: PubSub[] = [];
  const messengers: PubSubMessenger[] = [];
  return {
    name: 'Pub/Sub messages',
    make: async () => {
      const client = new PubSub({ projectId: 'datadriver-test', apiEndpoint: endpoint });
      const messenger = new PubSubMessenger({ client, topicName, logger: quiet });
      clients.push(client);
      messengers.push(messenger);
      const warmUp = unique('CKHandoff_warm-up');
      const subscription = await messenger.subscribe(warmUp, () => undefined);
      await messenger.publish(warmUp, { warmUp: true });
      await subscription.unsubscribe();
      return messenger;
    },
    close: async () => {
      await Promise.all(messengers.map((messenger) => messenger.destroy()));
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
