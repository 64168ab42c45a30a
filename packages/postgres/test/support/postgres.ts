/** Pools, proxies and schemas for tests against the run's PostgreSQL. */
import { startTcpProxy, type TcpProxy } from '@datadriver/backends';
import pg from 'pg';
import { inject } from 'vitest';
import { ensureSchema } from '../../src/index.js';

/** The run's PostgreSQL: ours on a loopback port, or DATABASE_URL. */
export function postgresUrl(): string {
  return inject('postgresUrl');
}

/** `url` with its host and port replaced by the loopback proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const address = new URL(url);
  address.hostname = '127.0.0.1';
  address.port = String(proxy.port);
  return address.toString();
}

/** A TCP proxy in front of the run's PostgreSQL, so a test can cut connections and restore them. */
export async function postgresProxy(url = postgresUrl()): Promise<TcpProxy> {
  const address = new URL(url);
  return startTcpProxy({ host: address.hostname, port: Number(address.port || 5432) });
}

/**
 * A pool as a test uses one: bounded connection and query timeouts, so an outage fails within a
 * test's patience (a stopped proxy refuses at once; the bound is for a server that is slow to
 * fork a backend for each of many new connections on a busy machine). Errors of idle clients
 * during an outage are expected; the listener keeps them from crashing the process.
 */
export function makePool(url = postgresUrl(), options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    query_timeout: 5_000,
    ...options,
  });
  pool.on('error', () => undefined);
  return pool;
}

/** A fresh schema name, so tests sharing one server never see each other's rows. */
export function uniqueSchema(label: string): string {
  return `ddtest_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** A fresh schema, created. */
export async function freshSchema(pool: pg.Pool, label: string): Promise<string> {
  const schema = uniqueSchema(label);
  await ensureSchema(pool, { schema });
  return schema;
}

/** Collects pools and ends them all at the end. */
export class Pools {
  private readonly pools: pg.Pool[] = [];

  open(url?: string, options?: pg.PoolConfig): pg.Pool {
    const pool = makePool(url, options);
    this.pools.push(pool);
    return pool;
  }

  async endAll(): Promise<void> {
    const pools = this.pools.splice(0);
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  }
}

/** A logger that drops everything. */
export const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
