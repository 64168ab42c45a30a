import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoStore } from '../../src/index.js';
import { makeClient } from './dynamo-client.js';

/**
 * Warm clients for the simulated servers. Making an SDK client and its first call costs tens
 * of milliseconds of CPU; paid while a timed scenario runs, it shows up as a handoff that took
 * too long. A live server makes its client at boot, before any player joins: so do we.
 */
export class ClientPool {
  private readonly idle: DynamoDBClient[] = [];
  private readonly made: DynamoDBClient[] = [];

  constructor(
    private readonly endpoint: string,
    private readonly tableName: string,
  ) {}

  /** Makes `count` warm clients ahead of time. */
  async fill(count: number): Promise<void> {
    const clients = await Promise.all(Array.from({ length: count }, () => this.make()));
    this.idle.push(...clients);
  }

  /** A warm client no server is using. */
  async acquire(): Promise<DynamoDBClient> {
    return this.idle.pop() ?? this.make();
  }

  release(clients: Iterable<DynamoDBClient>): void {
    this.idle.push(...clients);
  }

  destroy(): void {
    for (const client of this.made) client.destroy();
  }

  private async make(): Promise<DynamoDBClient> {
    const client = makeClient(this.endpoint);
    this.made.push(client);
    await new DynamoStore({ client, tableName: this.tableName }).get('boot-check');
    return client;
  }
}
