/**
 * The testkit's ClusterBackend on DynamoDB Local: every simulated server stores through its own
 * warm client; messages stay in memory (shared by the cluster's servers), and so does presence
 * unless `presenceTable` is set, so that the scenarios test the store alone.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MemoryMessenger, MemoryPresence, type Presence, SystemScheduler } from '@datadriver/core';
import { type ClusterBackend, realTime } from '@datadriver/testkit';
import { DynamoPresence, DynamoStore, type DynamoVersionsOptions } from '../../src/index.js';
import type { ClientPool } from './client-pool.js';
import { rawRecord } from './dynamo-client.js';

export interface DynamoBackendOptions {
  /** Reads records past the adapter. */
  readonly direct: DynamoDBClient;
  readonly pool: ClientPool;
  readonly tableName: string;
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions so (the lifecycle scenarios need them). */
  readonly versions?: DynamoVersionsOptions;
  /**
   * Each server beats to its own DynamoPresence on this table, through its own client, and so
   * judges expiry on its own clock.
   */
  readonly presenceTable?: string;
}

export function dynamoClusterBackend(options: DynamoBackendOptions): ClusterBackend {
  const { direct, pool, tableName, versions, presenceTable } = options;
  const messenger = new MemoryMessenger();
  const shared = new MemoryPresence(new SystemScheduler());
  const presenceOf = (client: DynamoDBClient): Presence =>
    presenceTable === undefined ? shared : new DynamoPresence({ client, tableName: presenceTable });
  const clients: DynamoDBClient[] = [];
  return {
    name: presenceTable === undefined ? 'DynamoDB Local' : 'DynamoDB Local with DynamoPresence',
    time: realTime(),
    scale: options.scale,
    connect: async () => {
      const client = await pool.acquire();
      clients.push(client);
      return {
        store: new DynamoStore({ client, tableName, ...(versions && { versions }) }),
        messenger,
        presence: presenceOf(client),
      };
    },
    read: (storeKey) => rawRecord(direct, tableName, storeKey),
    close: async () => pool.release(clients),
  };
}
