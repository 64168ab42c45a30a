/**
 * The testkit's ClusterBackend on DynamoDB Local: every simulated server stores through its own
 * warm client, beside the stack's presence and messenger (in memory unless given, so that the
 * scenarios can test the store alone).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Messenger, Presence } from '@datadriver/core';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import { DynamoStore, type DynamoVersionsOptions } from '../../src/index.js';
import type { ClientPool } from './client-pool.js';
import { rawRecord } from './dynamo-client.js';
import { memoryMessenger, memoryPresence, type PortSource } from './stack-ports.js';

export interface DynamoBackendOptions {
  /** Reads records past the adapter. */
  readonly direct: DynamoDBClient;
  readonly pool: ClientPool;
  readonly tableName: string;
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions so (the lifecycle scenarios need them). */
  readonly versions?: DynamoVersionsOptions;
  /** Each server's presence (made for this backend alone; in memory by default). */
  readonly presence?: PortSource<Presence>;
  /** Each server's messenger (made for this backend alone; in memory by default). */
  readonly messenger?: PortSource<Messenger>;
}

export function dynamoClusterBackend(options: DynamoBackendOptions): ClusterBackend {
  const { direct, pool, tableName, versions } = options;
  const presence = options.presence ?? memoryPresence();
  const messenger = options.messenger ?? memoryMessenger();
  const clients: DynamoDBClient[] = [];
  return {
    name: `DynamoDB Local + ${presence.name} + ${messenger.name}`,
    time: realTime(),
    scale: options.scale,
    connect: async () => {
      const client = await pool.acquire();
      clients.push(client);
      return {
        store: new DynamoStore({ client, tableName, ...(versions && { versions }) }),
        presence: await presence.make(client),
        messenger: await messenger.make(client),
      };
    },
    read: (storeKey) => rawRecord(direct, tableName, storeKey),
    close: async () => {
      await Promise.all([presence.close(), messenger.close()]);
      pool.release(clients);
    },
  };
}
