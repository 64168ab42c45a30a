import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BackendUnavailableError, type RedisBackend, startRedis } from '../src/index.js';
import { redisCli } from '../src/redis-cli.js';
import { isListening, processesMentioning, rawPing } from './helpers.js';

const HOST = '127.0.0.1';

describe('startRedis (own server)', () => {
  let redis: RedisBackend;
  afterAll(() => redis?.stop());

  it('starts a server that answers PING on a loopback port', async () => {
    const started = Date.now();
    // An empty env: this test is about launching, so an ambient REDIS_URL must not interfere.
    redis = await startRedis({ env: {} });
    console.info(`redis-server ready in ${Date.now() - started} ms`);
    expect(redis.external).toBe(false);
    expect(redis.url).toBe(`redis://${HOST}:${redis.port}`);
    expect(await rawPing(HOST, redis.port)).toBe('+PONG\r\n');
  });

  it('kill() takes it down and restart() brings it back on the same port', async () => {
    await redis.kill();
    await expect(rawPing(HOST, redis.port)).rejects.toThrow(/ECONNREFUSED/);
    await redis.restart();
    expect(await rawPing(HOST, redis.port)).toBe('+PONG\r\n');
  });

  it('stop() leaves nothing listening and no redis-server process', async () => {
    await redis.stop();
    await redis.stop(); // twice is fine
    expect(await isListening(HOST, redis.port)).toBe(false);
    expect(processesMentioning(`redis-server ${HOST}:${redis.port}`)).toEqual([]);
  });
});

describe('startRedis with a data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'redis-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('restart() keeps every acknowledged write; without one, a restart starts empty', async () => {
    const durable = await startRedis({ env: {}, dataDir });
    const volatile = await startRedis({ env: {} });
    try {
      for (const redis of [durable, volatile]) {
        expect((await redisCli(redis.port, 'SET', 'kept', '42')).trim()).toBe('OK');
        await redis.restart();
      }
      expect((await redisCli(durable.port, 'GET', 'kept')).trim()).toBe('42');
      expect((await redisCli(volatile.port, 'GET', 'kept')).trim()).toBe('');
    } finally {
      await Promise.all([durable.stop(), volatile.stop()]);
    }
  });
});

describe('startRedis (REDIS_URL)', () => {
  it('uses the given server and refuses to kill or restart it', async () => {
    const redis = await startRedis({ env: { REDIS_URL: 'redis://cache.example:6380' } });
    expect(redis).toMatchObject({ external: true, url: 'redis://cache.example:6380', port: 6380 });
    await expect(redis.kill()).rejects.toThrow(/REDIS_URL.*backend\.external/);
    await expect(redis.restart()).rejects.toThrow(/REDIS_URL/);
    await redis.stop(); // a no-op
  });
});

describe('startRedis without redis-server', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('fails with BackendUnavailableError saying how to install it', async () => {
    vi.stubEnv('PATH', '/nonexistent');
    const failure = startRedis({ env: {} });
    await expect(failure).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failure).rejects.toThrow(/`redis-server` was not found on PATH/);
    await expect(failure).rejects.toThrow(/apt-get install -y redis-server.*REDIS_URL/);
  });

  it('points CI at its CI script', async () => {
    vi.stubEnv('PATH', '/nonexistent');
    await expect(startRedis({ env: { CI: 'true' } })).rejects.toThrow(/CI must provide it/);
  });
});
