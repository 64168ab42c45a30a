/**
 * The CLI's backends on one PostgreSQL (`--postgres <url>`, `--postgres-schema`): records, presence and
 * hand-over messages through the published `@datadriver/postgres` adapters, on a small pool of
 * the CLI's own. It never creates the schema: a missing one is named, as a missing table is.
 */
import {
  DataDriverError,
  describeError,
  ErrorCode,
  type Messenger,
  type Presence,
  type Store,
  type VersionRetention,
} from '@datadriver/core/ports';
import {
  codeOf,
  DEFAULT_SCHEMA,
  PostgresMessenger,
  PostgresPresence,
  PostgresStore,
} from '@datadriver/postgres';
import pg from 'pg';
import { quietLogger } from './quiet-logger.js';

export interface PostgresBackendOptions {
  readonly url: string;
  readonly schema?: string;
  readonly versions?: VersionRetention;
  /** For messages: the URL without its password. */
  readonly shownUrl: string;
}

export interface PostgresBackends {
  readonly store: Store;
  readonly presence: Presence;
  readonly messenger: Messenger;
  /** The ms a server's beat has left on the database's clock, from PostgresPresence.scan. */
  readonly presenceExpiry: (key: string) => Promise<number | undefined>;
  readonly where: string;
  close(): Promise<void>;
}

export async function connectPostgres(options: PostgresBackendOptions): Promise<PostgresBackends> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const where = `${options.shownUrl} schema ${JSON.stringify(schema)}`;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 2,
    // A tool gives up quickly, as its Redis client does.
    connectionTimeoutMillis: 3_000,
    query_timeout: 5_000,
  });
  pool.on('error', () => undefined); // an idle connection lost: the next query makes a new one
  try {
    await checkSchema(pool, schema, options.shownUrl, where);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const messenger = new PostgresMessenger({ pool, schema, logger: quietLogger });
  const presence = new PostgresPresence({ pool, schema });
  return {
    store: new PostgresStore({
      pool,
      schema,
      logger: quietLogger,
      versions: options.versions ?? {},
    }),
    presence,
    messenger,
    // The beats are one small table: a scan reads each expiry without a statement of the CLI's.
    presenceExpiry: async (key) => {
      for await (const entry of presence.scan()) {
        if (entry.key === key) return entry.expiresInMs;
      }
      return undefined;
    },
    where,
    close: async () => {
      await messenger.close();
      await pool.end();
    },
  };
}

/** Reaches the server and refuses a schema without the adapter's tables, naming those there. */
async function checkSchema(
  pool: pg.Pool,
  schema: string,
  shownUrl: string,
  where: string,
): Promise<void> {
  let tables: string[];
  try {
    const result = await pool.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    tables = result.rows.map((row) => row.table_name);
  } catch (error) {
    const code = codeOf(error);
    throw new DataDriverError(
      code === ErrorCode.Misconfigured ? code : ErrorCode.Unavailable,
      `could not ${code === ErrorCode.Misconfigured ? 'log in to' : 'reach'} PostgreSQL at ${shownUrl}: ${describeError(error)}`,
      { cause: error, details: { url: shownUrl } },
    );
  }
  const missing = ['records', 'record_versions', 'presence'].filter((t) => !tables.includes(t));
  if (missing.length === 0) return;
  const schemas = await pool
    .query<{ table_schema: string }>(
      "SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_name = 'records'",
    )
    .then((result) => result.rows.map((row) => row.table_schema))
    .catch(() => undefined);
  const hint =
    schemas === undefined ? '' : `; schemas with a records table: ${schemas.join(', ') || 'none'}`;
  throw new DataDriverError(
    ErrorCode.Misconfigured,
    `--postgres-schema ${JSON.stringify(schema)}: no DataDriver tables (${missing.join(', ')} missing) at ${where}${hint}`,
    { details: { schema } },
  );
}
