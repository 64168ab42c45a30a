/**
 * The Presence port on PostgreSQL: one row per key in the schema's `presence` table, whose
 * expiry the database computes from its own clock (`now()` plus the TTL), and a read keeps
 * only rows not yet expired by that same clock: every reader agrees on when a server stopped
 * beating, whatever the servers' clock skew. A read that cannot reach the database rejects
 * (the caller's "unknown"), never answers "absent".
 */
import {
  DataDriverError,
  ErrorCode,
  type Presence,
  type PresenceEntry,
} from '@datadriver/core/ports';
import type { Pool } from 'pg';
import { toPostgresError } from './errors.js';
import { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';
import { keyBytes, keyOfBytes } from './stored-record.js';

export interface PostgresPresenceOptions {
  /** The application's `pg` Pool. */
  readonly pool: Pool;
  /** The schema holding the `presence` table (default `datadriver`); see `ensureSchema`. */
  readonly schema?: string;
}

/**
 * How long an expired row stays before a beat deletes it: long past any reader's interest,
 * and a beat deletes only rows that old, so the table stays as small as the live fleet.
 */
const EXPIRED_ROWS_KEPT = "interval '1 hour'";
const SCAN_PAGE = 500;

/** Expiring presence rows. */
export class PostgresPresence implements Presence {
  /** The Presence port version this adapter implements. */
  readonly specificationVersion = 'v1';
  /** The schema holding the table. */
  readonly schema: string;
  private readonly pool: Pool;
  private readonly table: string;
  private readonly setSql: string;
  private readonly getEntrySql: string;
  private readonly scanSql: string;

  constructor(options: PostgresPresenceOptions) {
    this.pool = options.pool;
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    this.table = `${quoteSchema(this.schema)}.presence`;
    // One statement: the beat, and the removal of rows expired long ago (an index range).
    this.setSql = `WITH swept AS (
  DELETE FROM ${this.table} WHERE expires_at < now() - ${EXPIRED_ROWS_KEPT} AND key <> $1
)
INSERT INTO ${this.table} (key, value, expires_at)
  VALUES ($1, $2, now() + $3::bigint * interval '1 millisecond')
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;
    this.getEntrySql = `SELECT value,
    ceil(extract(epoch FROM expires_at - now()) * 1000)::bigint AS expires_in_ms
  FROM ${this.table} WHERE key = $1 AND expires_at > now()`;
    this.scanSql = `SELECT key, value,
    ceil(extract(epoch FROM expires_at - now()) * 1000)::bigint AS expires_in_ms
  FROM ${this.table}
  WHERE expires_at > now() AND ($1::bytea IS NULL OR key > $1)
  ORDER BY key LIMIT ${SCAN_PAGE}`;
  }

  /** Writes `value` under `key` for `ttlSeconds` (to the millisecond) by the database's clock. */
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const ttlMs = Math.ceil(ttlSeconds * 1000);
    if (!Number.isFinite(ttlMs) || ttlMs < 1) {
      throw new DataDriverError(
        ErrorCode.InvalidArgument,
        `a presence TTL must be a positive number of seconds, got ${String(ttlSeconds)}`,
      );
    }
    try {
      await this.pool.query(this.setSql, [keyBytes(key), keyBytes(value), ttlMs]);
    } catch (error) {
      throw toPostgresError(error, 'presence set', key);
    }
  }

  /**
   * `get`, with the ms until the database expires the key (by its own clock, as `get` judges
   * it): a joiner waiting on a stopped server reads again as its key expires.
   */
  async getEntry(key: string): Promise<PresenceEntry | undefined> {
    try {
      const { rows } = await this.pool.query<{ value: Buffer; expires_in_ms: string }>(
        this.getEntrySql,
        [keyBytes(key)],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      const expiresInMs = Number(row.expires_in_ms);
      const value = keyOfBytes(row.value);
      return expiresInMs > 0 ? { key, value, expiresInMs } : { key, value };
    } catch (error) {
      throw toPostgresError(error, 'presence get', key);
    }
  }

  /**
   * The live value under `key`, or `undefined` when a successful read found none. A failed
   * read rejects: the caller's "unknown", never "absent".
   */
  async get(key: string): Promise<string | undefined> {
    return (await this.getEntry(key))?.value;
  }

  /**
   * Every live key, with its value and the ms until the database expires it, a page at a time
   * in key order. Read-only, for tools.
   */
  async *scan(): AsyncGenerator<PresenceEntry> {
    let after: Buffer | null = null;
    for (;;) {
      let rows: Array<{ key: Buffer; value: Buffer; expires_in_ms: string }>;
      try {
        ({ rows } = await this.pool.query(this.scanSql, [after]));
      } catch (error) {
        throw toPostgresError(error, 'presence scan', this.table);
      }
      for (const row of rows) {
        yield {
          key: keyOfBytes(row.key),
          value: keyOfBytes(row.value),
          expiresInMs: Math.max(0, Number(row.expires_in_ms)),
        };
      }
      if (rows.length < SCAN_PAGE) return;
      after = rows[rows.length - 1]?.key ?? null;
    }
  }
}
