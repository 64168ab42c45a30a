/** The error table, and the codes real failures of a real server get through it. */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, PostgresStore, toPostgresError } from '../src/index.js';
import { Pools, quiet, uniqueSchema } from './support/postgres.js';

const withCode = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe('codeOf', () => {
  it.each([
    [withCode('ECONNREFUSED'), ErrorCode.Unavailable],
    [withCode('ECONNRESET'), ErrorCode.Unavailable],
    [withCode('08006'), ErrorCode.Unavailable], // connection_failure
    [withCode('57P01'), ErrorCode.Unavailable], // admin_shutdown
    [withCode('57P03'), ErrorCode.Unavailable], // cannot_connect_now
    [withCode('57014'), ErrorCode.Timeout], // query_canceled (statement_timeout)
    [withCode('55P03'), ErrorCode.Timeout], // lock_not_available (lock_timeout)
    [withCode('22023'), ErrorCode.TooLarge], // pg_notify's payload string too long
    [withCode('54000'), ErrorCode.TooLarge], // program_limit_exceeded
    [withCode('42P01'), ErrorCode.Misconfigured], // undefined_table
    [withCode('42883'), ErrorCode.Misconfigured], // undefined_function
    [withCode('28P01'), ErrorCode.Misconfigured], // invalid_password
    [withCode('3D000'), ErrorCode.Misconfigured], // invalid_catalog_name
    [withCode('53300'), ErrorCode.Throttled], // too_many_connections
    [withCode('53100'), ErrorCode.Throttled], // disk_full
    [withCode('23505'), ErrorCode.BackendFailed], // unique_violation: not one of ours
    [new Error('Connection terminated unexpectedly'), ErrorCode.Unavailable],
    [new Error('timeout exceeded when trying to connect'), ErrorCode.Unavailable],
    [new Error('Query read timeout'), ErrorCode.Timeout],
    [new AggregateError([withCode('ECONNREFUSED')], ''), ErrorCode.Unavailable],
    [new Error('something else'), ErrorCode.BackendFailed],
    ['not even an error', ErrorCode.BackendFailed],
  ])('%s is %s', (error, code) => {
    expect(codeOf(error)).toBe(code);
  });

  it('keeps a DataDriverError as it is, and any other failure as the cause', () => {
    const typed = new DataDriverError(ErrorCode.Conflict, 'lost');
    expect(toPostgresError(typed, 'update', 'k')).toBe(typed);
    const cause = withCode('57P01');
    const wrapped = toPostgresError(cause, 'update', 'k');
    expect(wrapped).toMatchObject({ code: ErrorCode.Unavailable, cause });
    expect(wrapped.message).toContain('postgres update of k failed: failed with 57P01');
  });
});

describe('real failures', () => {
  const pools = new Pools();
  afterAll(() => pools.endAll());

  it('a schema never created is Data.Misconfigured, for a read and for a write', async () => {
    const store = new PostgresStore({ pool: pools.open(), schema: uniqueSchema('absent') });
    await expect(store.get('k')).rejects.toMatchObject({ code: ErrorCode.Misconfigured });
    await expect(store.update('k', () => ({ n: 1 }))).rejects.toMatchObject({
      code: ErrorCode.Misconfigured,
    });
  });

  it("a statement past the server's statement_timeout is Data.Timeout", async () => {
    const pool = pools.open(undefined, { statement_timeout: 50 });
    const store = new PostgresStore({ pool, schema: uniqueSchema('slow'), logger: quiet });
    const failure = await pool
      .query('SELECT pg_sleep(1)')
      .catch((error: unknown) => toPostgresError(error, 'read', 'k'));
    expect(failure).toMatchObject({ code: ErrorCode.Timeout });
    expect(store.maxRecordBytes).toBe(4 * 1024 * 1024);
  });

  it('an unreachable server is Data.Unavailable', async () => {
    const pool = pools.open('postgres://postgres@127.0.0.1:1/postgres');
    const store = new PostgresStore({ pool });
    await expect(store.get('k')).rejects.toMatchObject({ code: ErrorCode.Unavailable });
  });
});
