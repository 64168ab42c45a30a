import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';

describe('the command line', () => {
  it('serves on 8080 on loopback by default', () => {
    expect(parseCliOptions([], {})).toEqual({ port: 8080, host: '127.0.0.1' });
  });

  it('takes --port N, --port=N, then PORT', () => {
    expect(parseCliOptions(['--port', '9000'], { PORT: '7000' }).port).toBe(9000);
    expect(parseCliOptions(['--port=0'], {}).port).toBe(0);
    expect(parseCliOptions([], { PORT: '7000' }).port).toBe(7000);
  });

  it('takes --host', () => {
    expect(parseCliOptions(['--host', '0.0.0.0'], {}).host).toBe('0.0.0.0');
  });

  it('takes --redis <url> for the Redis mode; REDIS_URL alone keeps the in-memory default', () => {
    expect(parseCliOptions(['--redis', 'redis://127.0.0.1:6379'], {}).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(parseCliOptions(['--redis=rediss://cache:6380/1'], {}).redisUrl).toBe(
      'rediss://cache:6380/1',
    );
    expect(parseCliOptions([], { REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBeUndefined();
    expect(() => parseCliOptions(['--redis', 'localhost:6379'], {})).toThrow(
      '--redis must be a redis:// or rediss:// URL, got "localhost:6379"',
    );
    expect(() => parseCliOptions(['--redis'], {})).toThrow('--redis needs a value');
  });

  it('takes --postgres <url> for game servers on PostgreSQL; refuses it beside --redis', () => {
    expect(parseCliOptions(['--postgres', 'postgres://u@db:5432/game'], {})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/game',
    });
    expect(() => parseCliOptions(['--postgres', 'db:5432'], {})).toThrow(
      '--postgres must be a postgres:// URL, got "db:5432"',
    );
    expect(() =>
      parseCliOptions(['--redis', 'redis://r:6379', '--postgres', 'postgres://db/x'], {}),
    ).toThrow('--redis and --postgres choose the same thing: give one');
  });

  it('refuses a port that is not one', () => {
    expect(() => parseCliOptions(['--port', 'http'], {})).toThrow(
      '--port must be a port number from 0 to 65535, got "http"',
    );
    expect(() => parseCliOptions([], { PORT: '70000' })).toThrow('PORT must be a port number');
    expect(() => parseCliOptions(['--port'], {})).toThrow('--port needs a value');
  });
});
