import { setTimeout as sleep } from 'node:timers/promises';
import { DataDriverError, ErrorCode } from '@datadriver/core';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresence } from '../src/index.js';
import { presenceKey } from '../src/keys.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
let raw: Redis;
let prefix: string;
let presence: RedisPresence;

beforeAll(async () => {
  raw = await clients.open();
  prefix = uniquePrefix('presence-own');
  presence = new RedisPresence({ client: raw, prefix });
});
afterAll(() => clients.quitAll());

const codeOf = (error: unknown) => (DataDriverError.isInstance(error) ? error.code : error);

describe('RedisPresence', () => {
  it('keeps one string key per server, <prefix>{<jobId>}:presence, expiring in the TTL to the ms', async () => {
    await presence.set('server-1', '1', 10);
    expect(await raw.get(presenceKey(prefix, 'server-1'))).toBe('1');
    const ttl = await raw.pttl(presenceKey(prefix, 'server-1'));
    expect(ttl).toBeGreaterThan(9_900);
    expect(ttl).toBeLessThanOrEqual(10_000);
    expect(presence.keyOf('server-1')).toBe(`${prefix}{server-1}:presence`);
  });

  it('honours a TTL under a second (scaled timings)', async () => {
    await presence.set('fast', '1', 0.25);
    expect(await presence.get('fast')).toBe('1');
    await sleep(350);
    expect(await presence.get('fast')).toBeUndefined();
  });

  it('refuses a TTL that is not positive, writing nothing', async () => {
    for (const ttl of [0, -1, Number.NaN]) {
      const failure = await presence.set('bad', '1', ttl).catch((error: unknown) => error);
      expect(codeOf(failure)).toBe(ErrorCode.InvalidArgument);
    }
    expect(await raw.exists(presenceKey(prefix, 'bad'))).toBe(0);
  });

  it('rejects a read it cannot answer (unknown), never reads it as absent', async () => {
    await raw.hset(presenceKey(prefix, 'odd'), 'field', 'value');
    const failure = await presence.get('odd').catch((error: unknown) => error);
    expect(DataDriverError.isInstance(failure)).toBe(true);
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });
});
