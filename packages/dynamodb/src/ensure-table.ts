import {
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { translateDynamoError } from './errors.js';
import { checkTableOptions, type TableOptions } from './table-options.js';
import { createOrCheck, type KeySchema } from './table-schema.js';
import { VERSION_EXPIRY_ATTRIBUTE, VERSION_TIME_ATTRIBUTE } from './version-codec.js';
import { checkVersionsOptions, type DynamoVersionsOptions } from './versions-options.js';

export interface EnsureTableOptions extends TableOptions {
  /**
   * Turns on DynamoDB's TTL on this attribute: `expiresAt` for a `DynamoPresence` table, so
   * DynamoDB deletes the items of servers long gone. Leave unset for a store table.
   */
  readonly timeToLiveAttribute?: string;
  /**
   * Also creates the versions table of a `DynamoStore` made with `versions` (pass the same
   * object): partition key the store's key attribute, sort key `time` (number), with TTL on
   * `expiresAt` so versions past `maxAgeSeconds` are deleted by DynamoDB.
   */
  readonly versions?: DynamoVersionsOptions;
  /** How long to wait for a new table to become active, in seconds (default 120). */
  readonly waitSeconds?: number;
}

/**
 * Creates the tables DataDriver needs when they do not exist (on-demand capacity, a string
 * partition key; the versions table also a number sort key) and waits until they are active.
 * An existing table is checked, not changed: a different key schema fails with
 * `Data.Misconfigured`. Resolves 'created' when it created a table, else 'exists'. Made for
 * setup scripts and tests; in production prefer the CloudFormation snippet in the README.
 */
export async function ensureTable(options: EnsureTableOptions): Promise<'created' | 'exists'> {
  const { client, tableName, keyAttribute } = checkTableOptions(options);
  const versions =
    options.versions === undefined ? undefined : checkVersionsOptions(tableName, options.versions);
  const maxWaitTime = options.waitSeconds ?? 120;
  let created = await ensureOne(client, tableName, { partitionKey: keyAttribute }, maxWaitTime);
  if (options.timeToLiveAttribute !== undefined) {
    await enableTimeToLive(client, tableName, options.timeToLiveAttribute);
  }
  if (versions !== undefined) {
    const schema = { partitionKey: keyAttribute, sortKey: VERSION_TIME_ATTRIBUTE };
    const made = await ensureOne(client, versions.tableName, schema, maxWaitTime);
    await enableTimeToLive(client, versions.tableName, VERSION_EXPIRY_ATTRIBUTE);
    if (made === 'created') created = made;
  }
  return created;
}

async function ensureOne(
  client: DynamoDBClient,
  tableName: string,
  schema: KeySchema,
  maxWaitTime: number,
): Promise<'created' | 'exists'> {
  try {
    const result = await createOrCheck(client, tableName, schema);
    await waitUntilTableExists(
      { client, maxWaitTime, minDelay: 1, maxDelay: 5 },
      { TableName: tableName },
    );
    return result;
  } catch (error) {
    throw translateDynamoError(error, { operation: 'table setup', tableName });
  }
}

async function enableTimeToLive(client: DynamoDBClient, tableName: string, attribute: string) {
  try {
    const described = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    const { TimeToLiveStatus: status, AttributeName: current } =
      described.TimeToLiveDescription ?? {};
    const on = status === 'ENABLED' || status === 'ENABLING';
    if (on && current === attribute) return;
    if (on) {
      throw new DataDriverError(
        ErrorCode.Misconfigured,
        `table ${tableName} has TTL on ${current}, not ${attribute}; a table has one TTL attribute`,
        { details: { tableName, timeToLiveAttribute: current } },
      );
    }
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { Enabled: true, AttributeName: attribute },
      }),
    );
  } catch (error) {
    throw translateDynamoError(error, { operation: 'table setup', tableName });
  }
}
