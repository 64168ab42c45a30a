import {
  CreateTableCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  BackendUnavailableError,
  type DynamoLocalBackend,
  startDynamoLocal,
} from '../src/index.js';
import { isListening, parsePort, processesMentioning } from './helpers.js';

function client(endpoint: string, region: string, accessKeyId: string): DynamoDBClient {
  const config: DynamoDBClientConfig = {
    endpoint,
    region,
    credentials: { accessKeyId, secretAccessKey: 'dummy' },
  };
  return new DynamoDBClient(config);
}

describe('startDynamoLocal (own server)', () => {
  let ddb: DynamoLocalBackend;
  afterAll(() => ddb?.stop());

  it('starts DynamoDB Local that answers ListTables', async () => {
    const started = Date.now();
    ddb = await startDynamoLocal({ env: {} });
    console.info(`DynamoDB Local ready in ${Date.now() - started} ms`);
    expect(ddb.external).toBe(false);
    expect(ddb.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ddb.url).toBe(ddb.endpoint);
    const tables = await client(ddb.endpoint, 'us-east-1', 'local').send(new ListTablesCommand({}));
    expect(tables.TableNames).toEqual([]);
  });

  it('shares one database across regions and credentials (-sharedDb)', async () => {
    await client(ddb.endpoint, 'eu-west-1', 'writer').send(
      new CreateTableCommand({
        TableName: 'shared',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const seen = await client(ddb.endpoint, 'ap-south-1', 'reader').send(new ListTablesCommand({}));
    expect(seen.TableNames).toEqual(['shared']);
  });

  it('stop() leaves nothing listening and no java process', async () => {
    const port = parsePort(ddb.endpoint);
    await ddb.stop();
    expect(await isListening('127.0.0.1', port)).toBe(false);
    expect(processesMentioning(`-port ${port}`)).toEqual([]);
  });
});

describe('startDynamoLocal (DDB_ENDPOINT)', () => {
  it('uses the given endpoint', async () => {
    const ddb = await startDynamoLocal({ env: { DDB_ENDPOINT: 'http://dynamo.example:8000' } });
    expect(ddb).toMatchObject({ external: true, endpoint: 'http://dynamo.example:8000' });
    await ddb.stop();
  });
});

describe('startDynamoLocal without Java', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('fails with BackendUnavailableError saying how to install Java', async () => {
    vi.stubEnv('PATH', '/nonexistent');
    const failure = startDynamoLocal({ env: {} });
    await expect(failure).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failure).rejects.toThrow(/`java` was not found on PATH/);
    await expect(failure).rejects.toThrow(/Java 17.*apt-get install -y openjdk-17-jre-headless/);
  });
});
