/**
 * A chaos server's ports: the store on Redis or DynamoDB, messages and presence on Redis, each
 * on its own connection (and its own TCP proxy), so a cut of one leaves the other working.
 */
import type { Logger, Messenger, Presence, Store } from '@datadriver/core';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { Redis } from 'ioredis';
import type { StoreAddress } from './server-config.js';

export interface Connections {
  readonly store: Store;
  readonly messenger: Messenger;
  readonly presence: Presence;
  close(): Promise<void>;
}

export async function connect(
  store: StoreAddress,
  busUrl: string,
  logger: Logger,
): Promise<Connections> {
  const bus = redisClient(busUrl, 'bus', logger);
  const messenger = new RedisMessenger({ client: bus, logger });
  const storeSide =
    store.kind === 'redis' ? redisStore(store.url, logger) : await dynamoStore(store, logger);
  return {
    store: storeSide.store,
    messenger,
    presence: new RedisPresence({ client: bus, logger }),
    close: async () => {
      await messenger.close().catch(() => undefined);
      bus.disconnect();
      storeSide.close();
    },
  };
}

function redisStore(url: string, logger: Logger) {
  const client = redisClient(url, 'store', logger);
  return { store: new RedisStore({ client, logger }), close: () => client.disconnect() };
}

/** Imported only by the DynamoDB stack: the AWS SDK takes seconds to load on a busy machine. */
async function dynamoStore(address: Extract<StoreAddress, { kind: 'dynamodb' }>, logger: Logger) {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoStore } = await import('@datadriver/dynamodb');
  const client = new DynamoDBClient({
    endpoint: address.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return {
    store: new DynamoStore({ client, tableName: address.table, logger }),
    close: () => client.destroy(),
  };
}

/**
 * ioredis emits 'error' on every failed reconnection; a cut is the point of the run, so one
 * warning per outage, not an unhandled-error trace per attempt.
 */
function redisClient(url: string, role: string, logger: Logger): Redis {
  const client = new Redis(url, { ...RECOMMENDED_REDIS_OPTIONS });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn(`${role} connection failed: ${error.message}`);
    down = true;
  });
  client.on('ready', () => {
    down = false;
  });
  return client;
}
