/** Clients, proxies and names for tests against the run's redis-server. */
import { startTcpProxy, type TcpProxy } from '@datadriver/backends';
import { Redis, type RedisOptions } from 'ioredis';
import { inject } from 'vitest';
import { RECOMMENDED_REDIS_OPTIONS, type RedisClient } from '../../src/index.js';

/** The run's Redis: ours on a loopback port, or REDIS_URL. */
export function redisUrl(): string {
  return inject('redisUrl');
}

/** `url` with its host and port replaced by the loopback proxy's, keeping auth and db. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const address = new URL(url);
  address.hostname = '127.0.0.1';
  address.port = String(proxy.port);
  return address.toString();
}

/** A TCP proxy in front of the run's Redis, so a test can cut the connection and restore it. */
export async function redisProxy(url = redisUrl()): Promise<TcpProxy> {
  const address = new URL(url);
  return startTcpProxy({ host: address.hostname, port: Number(address.port || 6379) });
}

/**
 * The options tests use: the recommended ones, with a shorter command timeout so that an
 * outage fails within a test's patience.
 */
export const TEST_OPTIONS: RedisOptions = { ...RECOMMENDED_REDIS_OPTIONS, commandTimeout: 2_000 };

/**
 * A connected client (resolves once Redis answered a PING). Connection errors during an
 * outage are expected here; the listener keeps ioredis from printing each one.
 */
export async function connect(
  url = redisUrl(),
  options: RedisOptions = TEST_OPTIONS,
): Promise<Redis> {
  const client = new Redis(url, options);
  client.on('error', () => undefined);
  await client.ping();
  return client;
}

/** A fresh key prefix, so tests sharing one Redis never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `ddtest:${label}:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
}

/** Collects clients (standalone or Cluster) and quits them all at the end. */
export class Clients {
  private readonly clients: RedisClient[] = [];

  async open(url?: string, options?: RedisOptions): Promise<Redis> {
    const client = await connect(url, options);
    this.clients.push(client);
    return client;
  }

  /** Adopts a client made elsewhere. */
  add<T extends RedisClient>(client: T): T {
    this.clients.push(client);
    return client;
  }

  async quitAll(): Promise<void> {
    const clients = this.clients.splice(0);
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  }
}

/** A logger that drops everything: where a test asserts on other lines, the adapters' are noise. */
export const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
