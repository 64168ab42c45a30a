/**
 * The backends the CLI connects to, from its options: records on Redis (`--redis` and
 * `--prefix`) or DynamoDB (`--table`, with `--endpoint` or `--region`), presence on Redis or a
 * DynamoDB table (`--presence-table`), and Redis pub/sub for hand-over requests; or all three
 * on one PostgreSQL (`--postgres` and `--postgres-schema`, postgres-backends.ts). The adapters
 * are the published ones, so the CLI reads exactly what the servers wrote.
 */
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
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
  classifyDynamoError,
  DynamoPresence,
  DynamoStore,
  defaultVersionsTableName,
} from '@datadriver/dynamodb';
import {
  DEFAULT_PREFIX,
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { Redis } from 'ioredis';
import { connectPostgres } from './postgres-backends.js';
import { quietLogger } from './quiet-logger.js';

export interface BackendOptions {
  readonly redis?: string;
  readonly prefix?: string;
  readonly postgres?: string;
  readonly postgresSchema?: string;
  readonly table?: string;
  readonly versionsTable?: string;
  readonly presenceTable?: string;
  readonly keyAttribute?: string;
  readonly endpoint?: string;
  readonly region?: string;
  /** The servers' retention, so that a restore's write keeps to it too. */
  readonly versions?: VersionRetention;
}

export interface Backends {
  readonly store: Store;
  readonly presence: Presence | undefined;
  readonly messenger: Messenger | undefined;
  /** The ms a presence key has left, where the backend keeps an expiry (Redis). */
  readonly presenceExpiry: ((key: string) => Promise<number | undefined>) | undefined;
  /** Where the records are, for messages: `redis://host:port prefix dd:`, `table T at E`. */
  readonly where: string;
  close(): Promise<void>;
}

export async function connectBackends(options: BackendOptions): Promise<Backends> {
  if (options.postgres !== undefined) return connectPostgresOnly(options, options.postgres);
  if (options.redis === undefined && options.table === undefined) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      'name the store: --redis <url> (with --prefix), --table <name> (with --endpoint or --region) or --postgres <url> (with --postgres-schema)',
    );
  }
  const redis = options.redis === undefined ? undefined : await connectRedis(options.redis);
  try {
    const dynamo = options.table === undefined ? undefined : await connectDynamo(options);
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    const store: Store = dynamo
      ? dynamo.store
      : new RedisStore({
          client: redis!,
          prefix,
          logger: quietLogger,
          versions: options.versions ?? {},
        });
    const redisPresence =
      dynamo?.presence || !redis
        ? undefined
        : new RedisPresence({ client: redis, prefix, logger: quietLogger });
    const presence: Presence | undefined = dynamo?.presence ?? redisPresence;
    // One PTTL of the adapter's own key for that server: its name is the adapter's to say.
    const presenceExpiry = redisPresence
      ? async (key: string) => {
          const ms = await redis!.pttl(redisPresence.keyOf(key));
          return ms > 0 ? ms : undefined;
        }
      : undefined;
    const messenger = redis
      ? new RedisMessenger({ client: redis, prefix, logger: quietLogger })
      : undefined;
    const where = dynamo
      ? dynamo.where
      : `${redactedUrl(options.redis!)} prefix ${JSON.stringify(prefix)}`;
    return {
      store,
      presence,
      messenger,
      presenceExpiry,
      where,
      close: async () => {
        await messenger?.close();
        redis?.disconnect();
        dynamo?.client.destroy();
      },
    };
  } catch (error) {
    redis?.disconnect();
    throw error;
  }
}

/** `--postgres`: every port on that PostgreSQL, so no Redis or DynamoDB option goes with it. */
async function connectPostgresOnly(options: BackendOptions, url: string): Promise<Backends> {
  const other = options.redis !== undefined ? '--redis' : options.table !== undefined && '--table';
  if (other) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--postgres keeps records, presence and messages on PostgreSQL: drop ${other}`,
    );
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--postgres needs a postgres:// or postgresql:// URL, got ${JSON.stringify(redactedUrl(url))}`,
    );
  }
  return connectPostgres({
    url,
    shownUrl: redactedUrl(url),
    ...(options.postgresSchema === undefined ? {} : { schema: options.postgresSchema }),
    ...(options.versions === undefined ? {} : { versions: options.versions }),
  });
}

async function connectRedis(url: string): Promise<Redis> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('invalid:');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `--redis needs a redis:// or rediss:// URL, got ${JSON.stringify(url)}`,
    );
  }
  const client = new Redis(url, {
    ...RECOMMENDED_REDIS_OPTIONS,
    lazyConnect: true,
    connectTimeout: 3_000,
    // A tool gives up quickly: three tries, then the error.
    retryStrategy: (attempt) => (attempt > 2 ? null : 200),
  });
  // The connection's own error (ECONNREFUSED, ENOTFOUND) says more than "Connection is closed".
  let lastError: unknown;
  client.on('error', (error) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (thrown) {
    client.disconnect();
    const error = lastError ?? thrown;
    const auth = /NOAUTH|WRONGPASS|NOPERM/.test(describeError(error));
    throw new DataDriverError(
      auth ? ErrorCode.Misconfigured : ErrorCode.Unavailable,
      `could not ${auth ? 'log in to' : 'reach'} Redis at ${redactedUrl(url)}: ${describeError(error)}`,
      { cause: error, details: { url: redactedUrl(url) } },
    );
  }
  return client;
}

interface DynamoBackends {
  readonly client: DynamoDBClient;
  readonly store: Store;
  readonly presence: Presence | undefined;
  readonly where: string;
}

async function connectDynamo(options: BackendOptions): Promise<DynamoBackends> {
  const tableName = options.table!;
  const client = new DynamoDBClient({
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
  const where = `DynamoDB table ${JSON.stringify(tableName)} at ${options.endpoint ?? `region ${options.region ?? '(from the AWS environment)'}`}`;
  try {
    const keyAttribute = options.keyAttribute;
    const versionsTable = options.versionsTable ?? defaultVersionsTableName(tableName);
    await checkTable(client, tableName, where, '--table');
    const hasVersions = await tableExists(client, versionsTable);
    const store = new DynamoStore({
      client,
      tableName,
      ...(keyAttribute ? { keyAttribute } : {}),
      logger: quietLogger,
      ...(hasVersions ? { versions: { ...options.versions, tableName: versionsTable } } : {}),
    });
    let presence: Presence | undefined;
    if (options.presenceTable !== undefined) {
      await checkTable(client, options.presenceTable, where, '--presence-table');
      presence = new DynamoPresence({
        client,
        tableName: options.presenceTable,
        ...(keyAttribute ? { keyAttribute } : {}),
      });
    }
    return { client, store, presence, where };
  } catch (error) {
    client.destroy();
    throw error;
  }
}

/** Refuses a table that does not exist, naming the tables that do. */
async function checkTable(
  client: DynamoDBClient,
  tableName: string,
  where: string,
  option: string,
): Promise<void> {
  if (await tableExists(client, tableName)) return;
  const known = await client
    .send(new ListTablesCommand({ Limit: 20 }))
    .then((output) => output.TableNames ?? [])
    .catch(() => undefined);
  const hint = known === undefined ? '' : `; tables there: ${known.join(', ') || 'none'}`;
  throw new DataDriverError(
    ErrorCode.Misconfigured,
    `${option} ${JSON.stringify(tableName)}: no such table (${where})${hint}`,
    { details: { tableName } },
  );
}

async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if ((error as { name?: unknown }).name === 'ResourceNotFoundException') return false;
    throw dynamoFailure(error, tableName);
  }
}

function dynamoFailure(error: unknown, tableName: string): DataDriverError {
  const kind = classifyDynamoError(error);
  return new DataDriverError(
    kind === 'unavailable' ? ErrorCode.Unavailable : ErrorCode.Misconfigured,
    `could not read table ${JSON.stringify(tableName)} from DynamoDB: ${describeError(error)}`,
    { cause: error, details: { tableName } },
  );
}

/** `url` without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
