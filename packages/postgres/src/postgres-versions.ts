/**
 * The Store port's optional history on PostgreSQL: the versions that `PostgresStore` keeps with
 * a write (its compare-and-set function inserts them), read back by time or by id. Reads apply
 * the retention by the database's clock, so a version past its age is never served before the
 * next write of its key drops it.
 */
import {
  checkVersionQuery,
  type StoreRecord,
  type StoreVersion,
  type StoreVersions,
  type VersionQuery,
} from '@datadriver/core/ports';
import type { Pool } from 'pg';
import { toPostgresError } from './errors.js';
import type { RetentionParams } from './retention.js';
import { keyBytes, recordOf } from './stored-record.js';

/** The lowest `written_us` of key $1 still within the retention ($2 keep, $3 max age in ms). */
function retainedFloor(table: string): string {
  // OFFSET NULL means no offset, so an unset count must not reach the subquery.
  return `coalesce(greatest(
    CASE WHEN $2::integer IS NOT NULL THEN (SELECT k.written_us FROM ${table} k WHERE k.key = $1
      ORDER BY k.written_us DESC OFFSET $2::integer - 1 LIMIT 1) END,
    floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint - $3::bigint * 1000
  ), -9223372036854775808)`;
}

/** A query's time bounds as inclusive µs (`null` for none), or `undefined` for no match. */
function microsRange({ before, after }: VersionQuery): [number | null, number | null] | undefined {
  if (before === -Infinity || after === Infinity) return undefined;
  // A version stamped in ms `t` has a time from t * 1000 to t * 1000 + 999 µs.
  const high = before === undefined || before === Infinity ? null : Math.floor(before) * 1000 + 999;
  const low = after === undefined || after === -Infinity ? null : Math.ceil(after) * 1000;
  return [high, low];
}

export class PostgresVersions implements StoreVersions {
  private readonly listSql: string;
  private readonly readSql: string;
  private readonly purgeSql: string;

  /** @param table the versions table, schema-qualified and quoted. */
  constructor(
    private readonly pool: Pool,
    private readonly table: string,
    private readonly retention: RetentionParams,
  ) {
    const floor = retainedFloor(table);
    this.listSql = `SELECT v.id, v.written_us FROM ${table} v
  WHERE v.key = $1 AND v.written_us >= ${floor}
    AND ($4::bigint IS NULL OR v.written_us <= $4) AND ($5::bigint IS NULL OR v.written_us >= $5)
  ORDER BY v.written_us DESC LIMIT $6`;
    this.readSql = `SELECT v.record FROM ${table} v
  WHERE v.key = $1 AND v.id = $4 AND v.written_us >= ${floor}`;
    this.purgeSql = `DELETE FROM ${table} WHERE key = $1`;
  }

  /**
   * Versions of `key`, newest first, each stamped with the database's clock (ms) when its write
   * committed. Only versions still within the retention are listed.
   */
  async list(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkVersionQuery(query);
    const range = microsRange(query);
    if (range === undefined || query.limit === 0) return [];
    const { keep, maxAgeMs } = this.retention;
    try {
      const { rows } = await this.pool.query<{ id: string; written_us: string }>(this.listSql, [
        keyBytes(key),
        keep,
        maxAgeMs,
        ...range,
        query.limit ?? null,
      ]);
      return rows.map(({ id, written_us }) => {
        const micros = Number(written_us);
        return { id, time: (micros - (micros % 1000)) / 1000 };
      });
    } catch (error) {
      throw toPostgresError(error, 'versions list', key);
    }
  }

  /** The record as version `id` of `key` wrote it, or `undefined` when it is not retained. */
  async read(key: string, id: string): Promise<StoreRecord | undefined> {
    const { keep, maxAgeMs } = this.retention;
    let json: string | undefined;
    try {
      const { rows } = await this.pool.query<{ record: string }>(this.readSql, [
        keyBytes(key),
        keep,
        maxAgeMs,
        id,
      ]);
      json = rows[0]?.record;
    } catch (error) {
      throw toPostgresError(error, 'versions read', key);
    }
    return json === undefined ? undefined : recordOf(json, key, this.table);
  }

  /** Deletes every version of `key`, in one statement. */
  async purge(key: string): Promise<void> {
    try {
      await this.pool.query(this.purgeSql, [keyBytes(key)]);
    } catch (error) {
      throw toPostgresError(error, 'versions purge', key);
    }
  }
}
