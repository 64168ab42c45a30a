/**
 * `waitForReplicas` on a redis-server without replicas: every write lands on the master and
 * is refused as not replicated; and the refusals of the option itself.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
let raw: Redis;
beforeAll(async () => {
  raw = await clients.open();
});
afterAll(() => clients.quitAll());

describe('RedisStore waitForReplicas', () => {
  it('refuses a replica count or wait that is not a whole positive number, at construction', () => {
    for (const options of [
      { waitForReplicas: -1 },
      { waitForReplicas: 1.5 },
      { waitForReplicas: 1, replicaWaitMs: 0 },
      { waitForReplicas: 1, replicaWaitMs: 2.5 },
    ]) {
      expect(
        () => new RedisStore({ client: raw, ...options }),
        JSON.stringify(options),
      ).toThrowError(expect.objectContaining({ code: ErrorCode.InvalidConfig }));
    }
    expect(() => new RedisStore({ client: raw, waitForReplicas: 0 })).not.toThrow();
  });

  it('refuses a write fewer replicas acknowledged in time with Data.Unavailable; the master has it', async () => {
    const prefix = uniquePrefix('replicas');
    const store = new RedisStore({ client: raw, prefix, waitForReplicas: 1, replicaWaitMs: 100 });
    const started = Date.now();
    const failure = await store.update('PlayerData/p', () => ({ n: 1 })).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(DataDriverError.isInstance(failure)).toBe(true);
    expect((failure as DataDriverError).code).toBe(ErrorCode.Unavailable);
    expect((failure as Error).message).toMatch(/written on its master, but 0 of 1 replica/);
    // As the port allows of a rejection, this one had committed: the next update sees it.
    expect(await store.get('PlayerData/p')).toEqual({ n: 1 });
    // A write that changes nothing waits for nothing.
    expect((await store.update('PlayerData/p', () => undefined))?.record).toEqual({ n: 1 });
  });

  it('warns once when a presence or messenger shares the client of a store that waits', async () => {
    const client = await clients.open();
    const logger = recordingLogger();
    new RedisPresence({ client, logger });
    new RedisStore({ client, logger, waitForReplicas: 1 });
    new RedisMessenger({ client, logger });
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.message)).toEqual([
      expect.stringMatching(/shares its ioredis client .* Give that store a client of its own/),
    ]);
    const own = await clients.open();
    const quiet = recordingLogger();
    new RedisStore({ client: own, logger: quiet, waitForReplicas: 1 });
    new RedisPresence({ client: await clients.open(), logger: quiet });
    expect(quiet.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});
