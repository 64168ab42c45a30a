import { connect as connectSocket } from 'node:net';
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { ReplyError } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DeadlineError, OfflineError } from '../src/deadline.js';
import { codeOf, toRedisError } from '../src/errors.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
afterAll(() => clients.quitAll());

/** The error Node reports when nothing listens on a port. */
function refusedConnection(): Promise<Error> {
  return new Promise((resolve) => {
    const socket = connectSocket(1, '127.0.0.1');
    socket.once('error', resolve);
  });
}

describe('Redis errors as DataDriver codes', () => {
  it('maps what a real server answers', async () => {
    const client = await clients.open();
    const key = `${uniquePrefix('errors')}hash`;
    await client.hset(key, 'f', 'v');
    const wrongType = await client.get(key).catch((error: unknown) => error);
    expect(codeOf(wrongType)).toBe(ErrorCode.InvalidRecord);
    const unknown = await client.call('NO-SUCH-COMMAND').catch((error: unknown) => error);
    expect(codeOf(unknown)).toBe(ErrorCode.Misconfigured);
    const script = await client.eval('return redis.call("NOPE")', 0).catch((e: unknown) => e);
    expect(codeOf(script)).toBe(ErrorCode.BackendFailed);
    expect(codeOf(await refusedConnection())).toBe(ErrorCode.Unavailable);
  });

  it.each([
    ['LOADING Redis is loading the dataset in memory', ErrorCode.Unavailable],
    ['BUSY Redis is busy running a script', ErrorCode.Unavailable],
    ["READONLY You can't write against a read only replica.", ErrorCode.Unavailable],
    ['CLUSTERDOWN The cluster is down', ErrorCode.Unavailable],
    ['TRYAGAIN Multiple keys request during rehashing of slot', ErrorCode.Unavailable],
    ['MOVED 3999 127.0.0.1:6381', ErrorCode.Unavailable],
    ['ASK 3999 127.0.0.1:6381', ErrorCode.Unavailable],
    ['MASTERDOWN Link with MASTER is down', ErrorCode.Unavailable],
    ["OOM command not allowed when used memory > 'maxmemory'.", ErrorCode.Throttled],
    ['NOAUTH Authentication required.', ErrorCode.Misconfigured],
    ['WRONGPASS invalid username-password pair', ErrorCode.Misconfigured],
    ["NOPERM this user has no permissions to run the 'evalsha' command", ErrorCode.Misconfigured],
    ["CROSSSLOT Keys in request don't hash to the same slot", ErrorCode.Misconfigured],
    ['ERR Protocol error: invalid bulk length', ErrorCode.TooLarge],
    ['ERR something else', ErrorCode.BackendFailed],
  ])('maps the reply %s', (message, code) => {
    expect(codeOf(new ReplyError(message))).toBe(code);
  });

  it.each([
    ['Connection is closed.', ErrorCode.Unavailable],
    ["Stream isn't writeable and enableOfflineQueue options is false", ErrorCode.Unavailable],
    ['Command timed out', ErrorCode.Unavailable],
    ['Command aborted due to connection close', ErrorCode.Unavailable],
    // What ioredis's Cluster client throws while a master fails over or no node answers.
    [
      'Too many Cluster redirections. Last error: Error: Connection is closed.',
      ErrorCode.Unavailable,
    ],
    [
      'Too many Cluster redirections. Last error: ReplyError: MOVED 42 127.0.0.1:7001',
      ErrorCode.Unavailable,
    ],
    ["Cluster isn't ready and enableOfflineQueue options is false", ErrorCode.Unavailable],
    ['Cluster is disconnected.', ErrorCode.Unavailable],
    ['Cluster is ended.', ErrorCode.Unavailable],
    ['No sharded subscriber for slot: 42', ErrorCode.Unavailable],
    ['No subscriber for the cluster', ErrorCode.Unavailable],
    ['Connection is discarded because a new connection is made', ErrorCode.Unavailable],
    ['something unexpected', ErrorCode.BackendFailed],
  ])('maps the client error %s', (message, code) => {
    expect(codeOf(new Error(message))).toBe(code);
  });

  it('maps a call past its Cluster deadline to Data.Unavailable', () => {
    expect(codeOf(new DeadlineError(2_000))).toBe(ErrorCode.Unavailable);
  });

  it('maps a call refused while the Cluster client is offline to Data.Unavailable', () => {
    expect(codeOf(new OfflineError('reconnecting'))).toBe(ErrorCode.Unavailable);
  });

  it('keeps the original as cause, and a DataDriverError as it is', () => {
    const original = new ReplyError('LOADING Redis is loading');
    const mapped = toRedisError(original, 'read', 'dd:k');
    expect(mapped.code).toBe(ErrorCode.Unavailable);
    expect(mapped.cause).toBe(original);
    expect(mapped.message).toBe(
      'Data.Unavailable: redis read of dd:k failed: LOADING Redis is loading',
    );
    const typed = new DataDriverError(ErrorCode.Conflict, 'kept conflicting');
    expect(toRedisError(typed, 'update', 'dd:k')).toBe(typed);
  });
});
