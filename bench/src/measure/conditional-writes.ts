/**
 * The cheapest conditional write each store backend offers, one round trip each: a Lua
 * compare-and-set on a Redis hash, a DynamoDB PutItem with a condition, and one PostgreSQL
 * statement (an upsert that updates only the version it expects). A lock cannot change hands
 * with less; these are the write legs of the physical limit.
 */
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DEFAULT_KEY_ATTRIBUTE, ensureTable } from '@datadriver/dynamodb';
import { RECOMMENDED_REDIS_OPTIONS } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { DYNAMO_TABLE } from '../backends.js';
import { postgresPool } from './postgres-ports.js';

export type WriteStore =
  | { readonly kind: 'redis'; readonly url: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'dynamodb'; readonly endpoint: string };

/** A writer of the fresh record `key` on `store`. */
export function writerOn(store: WriteStore, key: string): Promise<ConditionalWriter> {
  if (store.kind === 'postgres') return postgresWriter(store.url, key);
  return store.kind === 'redis' ? redisWriter(store.url, key) : dynamoWriter(store.endpoint, key);
}

/** Writes the next version of one record; resolves once the backend acknowledged it. */
export interface ConditionalWriter {
  write(): Promise<void>;
  close(): void;
}

/** About the size of a stored profile with its lock meta. */
export const PAYLOAD = JSON.stringify({
  data: { coins: 12345, inventory: ['sword', 'shield', 'potion'] },
  meta: { lock: { jobId: 'bench-server-a', token: 'x'.repeat(24), time: 0, presence: true } },
});

const CAS = `
local current = redis.call('HGET', KEYS[1], 'v') or ''
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3])
return 1`;

export async function redisWriter(url: string, key: string): Promise<ConditionalWriter> {
  const client = new Redis(url, RECOMMENDED_REDIS_OPTIONS);
  const sha = String(await client.script('LOAD', CAS));
  await client.del(key);
  let version = 0;
  return {
    write: async () => {
      const written = await client.evalsha(
        sha,
        1,
        key,
        version === 0 ? '' : String(version),
        String(version + 1),
        PAYLOAD,
      );
      if (written !== 1) throw new Error(`compare-and-set of ${key} failed`);
      version++;
    },
    close: () => client.disconnect(),
  };
}

/** `key` must be new: the first write expects no record. */
export async function dynamoWriter(endpoint: string, key: string): Promise<ConditionalWriter> {
  const client = dynamoClient(endpoint);
  await ensureTable({ client, tableName: DYNAMO_TABLE });
  return { write: dynamoWrites(client, key), close: () => client.destroy() };
}

/** The writes of the fresh record `key` through `client`, each the next version of it. */
export function dynamoWrites(client: DynamoDBClient, key: string): () => Promise<void> {
  let version = 0;
  return async () => {
    await client.send(
      new PutItemCommand({
        TableName: DYNAMO_TABLE,
        Item: {
          [DEFAULT_KEY_ATTRIBUTE]: { S: key },
          v: { N: String(version + 1) },
          r: { S: PAYLOAD },
        },
        ConditionExpression: 'attribute_not_exists(v) OR v = :previous',
        ExpressionAttributeValues: { ':previous': { N: String(version) } },
      }),
    );
    version++;
  };
}

export function dynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** The bench's own table for PostgreSQL's conditional writes, apart from the store's. */
const POSTGRES_TABLE = 'bench_conditional_writes';

/**
 * `key` must be new. One statement: insert the first version, or update the row only where it
 * holds the version expected (no row changed otherwise: the condition failed). Autocommit, as
 * the store's compare_and_set runs, on a pool like the store's.
 */
export async function postgresWriter(url: string, key: string): Promise<ConditionalWriter> {
  const pool = postgresPool(url, 1);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${POSTGRES_TABLE} (k text PRIMARY KEY, v bigint NOT NULL, r text NOT NULL)`,
  );
  await pool.query(`DELETE FROM ${POSTGRES_TABLE} WHERE k = $1`, [key]);
  const sql = `INSERT INTO ${POSTGRES_TABLE} AS t (k, v, r) VALUES ($1, $3, $4)
  ON CONFLICT (k) DO UPDATE SET v = excluded.v, r = excluded.r WHERE t.v = $2`;
  let version = 0;
  return {
    write: async () => {
      const { rowCount } = await pool.query(sql, [key, version, version + 1, PAYLOAD]);
      if (rowCount !== 1) throw new Error(`compare-and-set of ${key} failed`);
      version++;
    },
    close: () => void pool.end(),
  };
}
