/**
 * The testkit's ClusterBackend on DynamoDB Local: every simulated server stores through its own
 * warm client; messages and presence stay in memory (shared by the cluster's servers) so that
 * the scenarios test the store alone.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { MemoryMessenger, MemoryPresence, SystemScheduler } from '@datadriver/core';
import type { ClusterBackend } from '@datadriver/testkit';
import { DynamoStore, type DynamoVersionsOptions } from '../../src/index.js';
import type { ClientPool } from './client-pool.js';
import { rawRecord } from './dynamo-client.js';
import { punctualRealTime } from './punctual-real-time.js';

export interface DynamoBackendOptions {
  /** Reads records past the adapter. */
  readonly direct: DynamoDBClient;
  readonly pool: ClientPool;
  readonly tableName: string;
  /** Real seconds per seed second. */
  readonly scale: number;
  /** The stores keep versions so (the lifecycle scenarios need them). */
  readonly versions?: DynamoVersionsOptions;
}

export function dynamoClusterBackend(options: DynamoBackendOptions): ClusterBackend {
  const { direct, pool, tableName, versions } = options;
  const messenger = new MemoryMessenger();
  const presence = new MemoryPresence(new SystemScheduler());
  const clients: DynamoDBClient[] = [];
  return {
    name: 'DynamoDB Local',
    time: punctualRealTime(),
    scale: options.scale,
    // Upper bounds get this much room for a loaded 2-core machine (GC, JIT, DynamoDB Local).
    slackMs: 750,
    connect: async () => {
      const client = await pool.acquire();
      clients.push(client);
      return {
        store: new DynamoStore({ client, tableName, ...(versions && { versions }) }),
        messenger,
        presence,
      };
    },
    read: (storeKey) => rawRecord(direct, tableName, storeKey),
    close: async () => pool.release(clients),
  };
}
