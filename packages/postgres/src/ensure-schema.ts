/**
 * Creates the adapter's schema where it is missing, as `ensureTable` does for DynamoDB: for
 * tests, development, and deployments that let the application own its tables. Teams that run
 * their own migrations take the same SQL from `schemaSql` (printed in the README).
 */
import type { Pool, PoolClient } from 'pg';
import { toPostgresError } from './errors.js';
import { DEFAULT_SCHEMA } from './schema-name.js';
import { schemaStatements } from './schema-sql.js';

export interface EnsureSchemaOptions {
  /** The schema to create the tables and function in (default `datadriver`). */
  readonly schema?: string;
}

/**
 * Runs the schema's statements in one transaction, under a transaction-scoped advisory lock so
 * that servers starting together do not race on `CREATE ... IF NOT EXISTS` (which is not safe
 * under concurrency). Idempotent; rejects with a `DataDriverError` (`Data.Misconfigured` when
 * the role may not create them).
 */
export async function ensureSchema(pool: Pool, options: EnsureSchemaOptions = {}): Promise<void> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const statements = schemaStatements(schema);
  let client: PoolClient | undefined;
  let failure: unknown;
  try {
    client = await pool.connect();
    await inTransaction(client, async (session) => {
      await session.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`datadriver:${schema}`]);
      for (const statement of statements) await session.query(statement);
    });
  } catch (error) {
    failure = error;
    throw toPostgresError(error, 'ensureSchema', schema);
  } finally {
    // A connection that failed mid-transaction is destroyed rather than pooled again.
    client?.release(failure instanceof Error ? failure : undefined);
  }
}

async function inTransaction(
  client: PoolClient,
  work: (client: PoolClient) => Promise<void>,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
