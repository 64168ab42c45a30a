/**
 * The Store port on PostgreSQL: one row per key. `update` runs the transform on the caller's
 * snapshot (or on a read when it has none) and writes its result through the schema's
 * `compare_and_set` function, one round trip: written, or the version moved and the reply
 * carries the record and version stored now, on which the transform runs again with no read.
 * With `versions` set, the same call keeps the written record as a version when asked.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkMaxRecordBytes,
  checkStoreKey,
  consoleLogger,
  DataDriverError,
  ErrorCode,
  type Logger,
  nextVersionId,
  recordJson,
  type Store,
  type StoreRecord,
  type StoreSnapshot,
  type StoreTransform,
  type UpdateOptions,
  type VersionRetention,
} from '@datadriver/core/ports';
import type { Pool } from 'pg';
import { toPostgresError } from './errors.js';
import { PostgresVersions } from './postgres-versions.js';
import { type RetentionParams, retentionParams } from './retention.js';
import { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';
import { keyBytes, keyOfBytes, keysAfterPrefix, recordOf } from './stored-record.js';

export interface PostgresStoreOptions {
  /** The application's `pg` Pool; the store borrows a connection per statement. */
  readonly pool: Pool;
  /** The schema holding the tables (default `datadriver`); see `ensureSchema`. */
  readonly schema?: string;
  /**
   * How many compare-and-sets one `update` tries before it rejects with `Data.Conflict`
   * (default 20). The first conflict re-runs the transform at once on the record the failed
   * compare-and-set carried back; after the nth (n > 1) it waits a random 0 to 2^n ms (at most
   * 100 ms) before reading again, so many writers of one key take turns.
   */
  readonly maxAttempts?: number;
  /**
   * Keep versions of written records (for `restoreAt` and `versions`) within this retention: a
   * write that asks for one (`keepVersion`) keeps it in the same transaction, stamped by the
   * database's clock. Off by default: `store.versions` is then `undefined`.
   */
  readonly versions?: VersionRetention;
  /**
   * The largest record sent, in bytes of JSON (default 4 MiB); core refuses a larger one with
   * `Data.TooLarge` before it is sent. PostgreSQL takes up to 1 GB in a field, but each write
   * holds a pooled connection while its record travels, and core keeps snapshots in memory.
   */
  readonly maxRecordBytes?: number;
  /** Gets a debug line for each conflict retry (default: the console). */
  readonly logger?: Logger;
}

/** 4 MiB: Roblox's own per-key limit, far below PostgreSQL's 1 GB per field. */
export const POSTGRES_MAX_RECORD_BYTES = 4 * 1024 * 1024;

const DEFAULT_MAX_ATTEMPTS = 20;
const MAX_BACKOFF_MS = 100;
const SCAN_PAGE = 500;

/** What the next run of a transform sees: a snapshot, and whether the store confirmed it. */
interface Seen {
  /** The version of `record`; `undefined` with no record. */
  readonly version: string | undefined;
  readonly record: StoreRecord | undefined;
  /** False for the caller's `expected`: a run that writes nothing on it must read first. */
  readonly confirmed: boolean;
}

interface CasRow {
  written: boolean;
  current_version: string | null;
  current_record: string | null;
}

/** Records as JSON text in one table, written by compare-and-set. */
export class PostgresStore implements Store {
  /** The Store port version this adapter implements. */
  readonly specificationVersion = 'v2';
  /** The schema holding the tables. */
  readonly schema: string;
  /** The kept versions, when the store was made with `versions`. */
  readonly versions: PostgresVersions | undefined;
  /** The largest record core sends to this store, in bytes of JSON. */
  readonly maxRecordBytes: number;
  private readonly pool: Pool;
  private readonly table: string;
  private readonly retention: RetentionParams | undefined;
  private readonly maxAttempts: number;
  private readonly logger: Logger;
  private readonly readSql: string;
  private readonly casSql: string;
  private readonly scanSql: string;

  constructor(options: PostgresStoreOptions) {
    this.pool = options.pool;
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    const schema = quoteSchema(this.schema);
    this.table = `${schema}.records`;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `maxAttempts must be a positive integer, got ${String(options.maxAttempts)}`,
      );
    }
    this.maxRecordBytes = checkMaxRecordBytes(options.maxRecordBytes ?? POSTGRES_MAX_RECORD_BYTES);
    this.logger = options.logger ?? consoleLogger('[DataDriver postgres]');
    this.retention = options.versions === undefined ? undefined : retentionParams(options.versions);
    this.versions =
      this.retention === undefined
        ? undefined
        : new PostgresVersions(this.pool, `${schema}.record_versions`, this.retention);
    this.readSql = `SELECT version, record FROM ${this.table} WHERE key = $1`;
    this.casSql = `SELECT written, current_version, current_record FROM ${schema}.compare_and_set($1, $2, $3, $4, $5, $6, $7)`;
    this.scanSql = `SELECT key FROM ${this.table}
  WHERE key >= $1 AND ($2::bytea IS NULL OR key < $2) AND ($3::bytea IS NULL OR key > $3)
  ORDER BY key LIMIT ${SCAN_PAGE}`;
  }

  /**
   * Replaces the record under `key` with `transform(current)` by compare-and-set, re-running
   * `transform` on the record a concurrent writer left, up to `maxAttempts` times. Given
   * `expected`, the first run is on its record, with no read. A rejection other than the
   * transform's own error is a `DataDriverError`; the write may have landed. With `keepVersion`
   * (and `versions` set), a committed write of a record also keeps it as a version.
   */
  async update(
    key: string,
    transform: StoreTransform,
    options: UpdateOptions = {},
  ): Promise<StoreSnapshot | undefined> {
    checkStoreKey(key);
    const keepVersion = options.keepVersion === true && this.retention !== undefined;
    const { expected } = options;
    let seen: Seen | undefined = expected && {
      record: expected.record,
      version: expected.version,
      confirmed: false,
    };
    for (let attempt = 1; ; ) {
      seen ??= await this.read(key);
      const next = transform(seen.record);
      if (next === undefined || (next === null && seen.record === undefined)) {
        if (seen.confirmed) return snapshotOfSeen(seen);
        seen = undefined; // the caller's snapshot: a decision to write nothing needs a read
        continue;
      }
      const version = nextVersionId();
      const json = next === null ? null : recordJson(next);
      const outcome = await this.compareAndSet(key, seen.version, version, json, keepVersion);
      // The record the transform returned: nobody changes it, so no copy is needed.
      if (outcome.written) return next === null ? undefined : { record: next, version };
      if (attempt >= this.maxAttempts) throw this.conflict(key);
      this.logger.debug(`update of ${key} met a concurrent write; re-running (${attempt})`);
      attempt += 1;
      if (attempt === 2) {
        // The reply carried the record stored now: run on it at once, no read.
        seen = this.seenIn(key, outcome.current_version, outcome.current_record);
        continue;
      }
      // Wait before the next read, never between a read and its write.
      seen = undefined;
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** (attempt - 1)));
    }
  }

  /** The record under `key`. */
  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    return (await this.read(key)).record;
  }

  /**
   * The store keys under `prefix`, a page of 500 at a time in key order (an index range scan).
   * Read-only, for tools.
   */
  async *scan(prefix: string): AsyncGenerator<string> {
    const low = keyBytes(prefix);
    const high = keysAfterPrefix(low) ?? null;
    let after: Buffer | null = null;
    for (;;) {
      let keys: Buffer[];
      try {
        const { rows } = await this.pool.query<{ key: Buffer }>(this.scanSql, [low, high, after]);
        keys = rows.map((row) => row.key);
      } catch (error) {
        throw toPostgresError(error, 'scan', `${this.table} under ${JSON.stringify(prefix)}`);
      }
      for (const key of keys) yield keyOfBytes(key);
      if (keys.length < SCAN_PAGE) return;
      after = keys[keys.length - 1] ?? null;
    }
  }

  private async read(key: string): Promise<Seen> {
    let row: { version: string; record: string } | undefined;
    try {
      const { rows } = await this.pool.query<{ version: string; record: string }>(this.readSql, [
        keyBytes(key),
      ]);
      row = rows[0];
    } catch (error) {
      throw toPostgresError(error, 'read', key);
    }
    return this.seenIn(key, row?.version ?? null, row?.record ?? null);
  }

  private async compareAndSet(
    key: string,
    seen: string | undefined,
    version: string,
    json: string | null,
    keepVersion: boolean,
  ): Promise<CasRow> {
    const { keep = null, maxAgeMs = null } = this.retention ?? {};
    let row: CasRow | undefined;
    try {
      const { rows } = await this.pool.query<CasRow>(this.casSql, [
        keyBytes(key),
        seen ?? null,
        version,
        json,
        keepVersion,
        keep,
        maxAgeMs,
      ]);
      row = rows[0];
    } catch (error) {
      throw toPostgresError(error, 'update', key);
    }
    if (row === undefined || typeof row.written !== 'boolean') {
      throw new DataDriverError(
        ErrorCode.BackendFailed,
        `postgres update of ${key} failed: compare_and_set returned ${JSON.stringify(row)}`,
        { details: { operation: 'update', target: key } },
      );
    }
    return row;
  }

  /** What the store holds, as read or carried back by a failed compare-and-set. */
  private seenIn(key: string, version: string | null, json: string | null): Seen {
    if (version === null || json === null) {
      return { version: undefined, record: undefined, confirmed: true };
    }
    return { version, record: recordOf(json, key, this.table), confirmed: true };
  }

  private conflict(key: string): DataDriverError {
    return new DataDriverError(
      ErrorCode.Conflict,
      `update of ${key} in ${this.table} kept meeting concurrent writes; gave up after ${this.maxAttempts} attempts`,
      { details: { key, table: this.table, attempts: this.maxAttempts } },
    );
  }
}

function snapshotOfSeen({ version, record }: Seen): StoreSnapshot | undefined {
  return version === undefined || record === undefined ? undefined : { record, version };
}
