import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { freePort } from '@datadriver/backends';
import { ErrorCode } from '@datadriver/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { classifyDynamoError, DynamoStore } from '../src/index.js';
import { freshTable, makeClient } from './support/dynamo-client.js';
import { failureOf } from './support/failure-of.js';

const clients: DynamoDBClient[] = [];
let direct: DynamoDBClient;
let table: Awaited<ReturnType<typeof freshTable>>;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  table = await freshTable(direct, 'failures');
});

afterAll(async () => {
  await table?.drop();
  for (const client of [direct, ...clients]) client?.destroy();
});

function track(client: DynamoDBClient): DynamoDBClient {
  clients.push(client);
  return client;
}

describe('misconfiguration and outages, as the real SDK reports them', () => {
  it('a missing table is Data.Misconfigured, naming the table and how to create it', async () => {
    const store = new DynamoStore({ client: direct, tableName: 'no-such-table' });
    const failure = await failureOf(store.update('k', () => ({ n: 1 })));
    expect(failure.code).toBe(ErrorCode.Misconfigured);
    expect(failure.message).toContain('table no-such-table');
    expect(failure.message).toContain('ensureTable()');
    expect((failure.cause as Error).name).toBe('ResourceNotFoundException');
    expect(failure.details).toMatchObject({
      tableName: 'no-such-table',
      key: 'k',
      awsError: 'ResourceNotFoundException',
    });
  });

  it('a key attribute the table does not have is Data.Misconfigured', async () => {
    const store = new DynamoStore({
      client: direct,
      tableName: table.tableName,
      keyAttribute: 'id',
    });
    const failure = await failureOf(store.get('k'));
    expect(failure.code).toBe(ErrorCode.Misconfigured);
    expect((failure.cause as Error).name).toBe('ValidationException');
  });

  it('nothing listening at the endpoint is Data.Unavailable', async () => {
    const client = track(makeClient(`http://127.0.0.1:${await freePort()}`, { maxAttempts: 1 }));
    const failure = await failureOf(new DynamoStore({ client, tableName: 'any-table' }).get('k'));
    expect(failure.code).toBe(ErrorCode.Unavailable);
    expect((failure.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('an endpoint whose host does not resolve is Data.Misconfigured (or Unavailable without DNS)', async () => {
    const client = track(makeClient('http://dynamodb.invalid:8000', { maxAttempts: 1 }));
    const failure = await failureOf(new DynamoStore({ client, tableName: 'any-table' }).get('k'));
    expect([ErrorCode.Misconfigured, ErrorCode.Unavailable]).toContain(failure.code);
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain((failure.cause as NodeJS.ErrnoException).code);
  });

  it('credentials that cannot be loaded are Data.Misconfigured', async () => {
    const client = track(
      new DynamoDBClient({
        endpoint: inject('dynamoEndpoint'),
        region: 'us-east-1',
        maxAttempts: 1,
        // What the SDK's default chain throws when it finds no credentials anywhere.
        credentials: async () => {
          const error = new Error('Could not load credentials from any providers');
          error.name = 'CredentialsProviderError';
          throw error;
        },
      }),
    );
    const failure = await failureOf(
      new DynamoStore({ client, tableName: table.tableName }).get('k'),
    );
    expect(failure.code).toBe(ErrorCode.Misconfigured);
    expect((failure.cause as Error).name).toBe('CredentialsProviderError');
  });
});

describe('classifyDynamoError', () => {
  // DynamoDB Local accepts any credentials and never throttles, so these names, as AWS sends
  // them, are checked on the classification alone.
  it.each([
    ['ConditionalCheckFailedException', 'conflict'],
    ['TransactionConflictException', 'conflict'],
    ['ProvisionedThroughputExceededException', 'throttled'],
    ['ThrottlingException', 'throttled'],
    ['RequestLimitExceeded', 'throttled'],
    ['UnrecognizedClientException', 'misconfigured'],
    ['InvalidSignatureException', 'misconfigured'],
    ['AccessDeniedException', 'misconfigured'],
    ['ExpiredTokenException', 'misconfigured'],
    ['ResourceNotFoundException', 'misconfigured'],
    ['TimeoutError', 'unavailable'],
    ['InternalServerError', 'failed'],
  ])('%s is %s', (name, kind) => {
    const error = Object.assign(new Error('from AWS'), {
      name,
      $metadata: { httpStatusCode: 400 },
    });
    expect(classifyDynamoError(error)).toBe(kind);
  });

  it('tells an oversized item from other validation errors', () => {
    const validation = (message: string) =>
      Object.assign(new Error(message), { name: 'ValidationException' });
    expect(classifyDynamoError(validation('Item size has exceeded the maximum allowed size'))).toBe(
      'too-large',
    );
    expect(classifyDynamoError(validation('One of the required keys was not given a value'))).toBe(
      'misconfigured',
    );
  });

  it('walks the cause chain and aggregate errors to the first definite link', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('request failed', {
      cause: new AggregateError([refused], 'all failed'),
    });
    expect(classifyDynamoError(wrapped)).toBe('unavailable');
    const throttledDeep = new Error('outer', {
      cause: Object.assign(new Error('inner'), { name: 'ThrottlingException' }),
    });
    expect(classifyDynamoError(throttledDeep)).toBe('throttled');
    expect(classifyDynamoError(new Error('no idea'))).toBe('failed');
    expect(classifyDynamoError('not even an error')).toBe('failed');
  });
});
