import type { JsonObject } from './json.js';

/** What a store holds under one key: a JSON object, opaque to the store. */
export type StoreRecord = JsonObject;

/**
 * The pure function of an atomic update. It receives the record as stored now (or
 * `undefined` when there is none) and returns:
 * - the next record, to be written in place of `current`;
 * - `undefined`, to write nothing;
 * - `null`, to delete the record.
 *
 * It may run more than once (a store retries it on a conflicting write), so it must have no
 * effect other than its return value, and must not mutate `current`.
 */
export type StoreTransform = (current: StoreRecord | undefined) => StoreRecord | null | undefined;

/**
 * A record as the store holds it, with the store's version of it: what `update` resolves with,
 * and what a caller hands back as `expected` to skip the read of its next write.
 */
export interface StoreSnapshot {
  /**
   * The record. In the snapshot of a write it may be the very object the transform returned:
   * a store never changes it. A caller's nested values may still change under it: DataDriver
   * hands back as `expected` the snapshot of the record a profile loaded, whose nested values
   * the loaded data shares while the game plays. So a store uses `expected.record` only as the
   * transform's input, and derives nothing from it to keep (its JSON, a hash).
   */
  readonly record: StoreRecord;
  /**
   * Opaque to callers. It changes with every committed write and never repeats on a key, not
   * even after the record is deleted and created again, nor across processes.
   */
  readonly version: string;
}

export interface UpdateOptions {
  /**
   * Also keep the written record as a version, atomically with the write, when the store
   * keeps versions (DataDriver asks for one whenever a profile's data changed).
   */
  readonly keepVersion?: boolean;
  /**
   * The snapshot of this key the caller last saw (an earlier `update`'s result). The store runs
   * the transform on its record first, without reading, and writes only if the stored version
   * is still this one. When it moved, the failed compare-and-set carries the current record
   * and version back, and the transform runs again on those: a conflict costs no extra read.
   * A transform that writes nothing on `expected` runs again on a fresh read, so no decision
   * stands on a snapshot the store did not confirm.
   */
  readonly expected?: StoreSnapshot;
}

/** One kept version of a record. */
export interface StoreVersion {
  /** Opaque, unique per key. */
  readonly id: string;
  /** When the write committed: ms since the epoch on the store's clock. */
  readonly time: number;
}

export interface VersionQuery {
  /** Only versions written at or before this time (ms). */
  readonly before?: number;
  /** Only versions written at or after this time (ms). */
  readonly after?: number;
  /** At most this many, newest first. */
  readonly limit?: number;
}

/**
 * The optional history of a store: versions written with `keepVersion`, within a retention
 * (a count and an age) set on the store. `restoreAt` and `versions` need it.
 */
export interface StoreVersions {
  /** Versions of `key`, newest first. */
  list(key: string, query?: VersionQuery): Promise<readonly StoreVersion[]>;
  /** The record as it was written in version `id`, or `undefined` when no longer retained. */
  read(key: string, id: string): Promise<StoreRecord | undefined>;
  /** Deletes every version of `key` (erasure). */
  purge(key: string): Promise<void>;
}

/** How much history a versioned store keeps. */
export interface VersionRetention {
  /** Versions kept per key (newest first); older ones are dropped. */
  readonly keep?: number;
  /** Versions older than this are dropped. */
  readonly maxAgeSeconds?: number;
}

/**
 * The record store: one atomic read-modify-write per key. DynamoDB does it by a conditional
 * write, Redis by a compare-and-set script; the in-memory store by running synchronously.
 *
 * Failures: a rejected `update` may or may not have committed (a response can be lost after
 * the write landed), and callers must tolerate both. Implementations reject with a
 * `DataDriverError` (`Data.Unavailable`, `Data.Throttled`, `Data.Conflict`, `Data.TooLarge`,
 * `Data.Misconfigured`, `Data.BackendFailed`) keeping the vendor error as `cause`.
 */
export interface Store {
  /**
   * The port contract this store implements; core refuses another. v2: the version travels
   * through the port (`StoreSnapshot`, `UpdateOptions.expected`).
   */
  readonly specificationVersion: 'v2';
  /**
   * True when the records live inside this process only (the in-memory store): no other
   * server can hold a lock on them, so handoff stays off by default.
   */
  readonly processLocal?: boolean;
  /**
   * Atomically replaces the record under `key` with `transform(current)`: no write by anyone
   * else lands between the read that `transform` sees and the write of its result. The
   * transform's last run is the one that counts: resolves with the snapshot stored afterwards
   * (`undefined` when there is none), which holds what that run returned when it wrote.
   */
  update(
    key: string,
    transform: StoreTransform,
    options?: UpdateOptions,
  ): Promise<StoreSnapshot | undefined>;
  /** A strongly consistent read of the record under `key`. */
  get(key: string): Promise<StoreRecord | undefined>;
  /**
   * The largest record this store takes, in UTF-8 bytes of its JSON. Core checks every record
   * against it before `update` sends it and refuses a larger one with `Data.TooLarge`, writing
   * nothing: a record over a backend's own limit can fail worse than a refusal (Redis drops the
   * connection, and with it every other profile's command on that client). Each store declares
   * a default (DynamoDB's item limit, a Redis default below any server's smallest bulk limit, a
   * generous one in memory); none means no limit.
   */
  readonly maxRecordBytes?: number;
  /** The store's history, when it keeps one. */
  readonly versions?: StoreVersions;
  /**
   * Optional, for tools (the CLI's `find-user`), never for a lock decision: the key of every
   * record stored now whose key starts with `prefix` (compared as text, no pattern), in no
   * order. Not a snapshot: a record written or deleted during the scan may or may not be
   * listed, and a key may be listed more than once. Writes nothing. A failure of the backend
   * rejects the iteration with a `DataDriverError`.
   */
  scan?(prefix: string): AsyncIterable<string>;
}
