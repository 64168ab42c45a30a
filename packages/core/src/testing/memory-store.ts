import { jsonClone } from '../ports/json.js';
import { recordJson } from '../ports/record-json.js';
import type { Scheduler } from '../ports/scheduler.js';
import type {
  Store,
  StoreRecord,
  StoreSnapshot,
  StoreTransform,
  UpdateOptions,
  VersionRetention,
} from '../ports/store.js';
import { checkMaxRecordBytes } from '../ports/store-checks.js';
import { SystemScheduler } from '../ports/system-scheduler.js';
import { nextVersionId } from '../ports/unique-ids.js';
import { checkStoreKey } from '../rules/keys.js';
import { MemoryVersions } from './memory-versions.js';

export interface MemoryStoreOptions {
  /** Keep versions of written records (for `restoreAt` and `versions`) within this retention. */
  readonly versions?: VersionRetention;
  /** The clock versions are stamped with; real time by default. */
  readonly clock?: Pick<Scheduler, 'now'>;
  /** The largest record taken, in bytes of JSON (default 16 MiB). */
  readonly maxRecordBytes?: number;
}

/** Generous: memory has no limit of its own, but a runaway record should still be refused. */
export const MEMORY_MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** A record as held: its JSON, and the version its compare-and-set compares. */
interface Held {
  readonly json: string;
  readonly version: string;
}

/**
 * The calls a remote store would make for the updates so far: a read of the record, and a
 * compare-and-set whose failure carries the current record back (as the Redis script and
 * DynamoDB's `ALL_OLD` do). Tests count them to check what a write costs.
 */
export interface MemoryStoreCalls {
  reads: number;
  compareAndSets: number;
}

/**
 * Records in a Map, for tests and a single process. Updates are atomic because the
 * transform runs synchronously between reading and writing. Records are kept as JSON so
 * that what a read gets back is a copy, as from a real backend. Several simulated servers
 * share one instance, each through its own `FaultyStore`.
 *
 * An update runs as a remote store's does, counted in `calls`: the transform on the
 * caller's `expected` snapshot, or on a read; then a compare-and-set on the version it saw,
 * which on a moved version hands the current record to the next run.
 */
export class MemoryStore implements Store {
  readonly specificationVersion = 'v2';
  readonly processLocal = true;
  readonly versions: MemoryVersions | undefined;
  readonly maxRecordBytes: number;
  readonly calls: MemoryStoreCalls = { reads: 0, compareAndSets: 0 };
  private readonly records = new Map<string, Held>();

  constructor(options: MemoryStoreOptions = {}) {
    this.maxRecordBytes = checkMaxRecordBytes(options.maxRecordBytes ?? MEMORY_MAX_RECORD_BYTES);
    this.versions =
      options.versions === undefined
        ? undefined
        : new MemoryVersions(options.versions, options.clock ?? new SystemScheduler());
  }

  async update(
    key: string,
    transform: StoreTransform,
    options: UpdateOptions = {},
  ): Promise<StoreSnapshot | undefined> {
    checkStoreKey(key);
    // `confirmed`: `seen` is what the store held at the last call, not a caller's snapshot.
    let seen = options.expected;
    let confirmed = false;
    for (;;) {
      if (!confirmed && seen === undefined) {
        seen = this.read(key);
        confirmed = true;
      }
      const next = transform(seen?.record);
      if (next === undefined || (next === null && seen === undefined && confirmed)) {
        if (confirmed) return seen;
        seen = undefined; // a caller's snapshot: confirm it by a read before writing nothing
        continue;
      }
      this.calls.compareAndSets += 1;
      const held = this.records.get(key);
      if (held?.version !== seen?.version) {
        seen = this.snapshotOf(held);
        confirmed = true;
        continue;
      }
      if (next === null) {
        this.records.delete(key);
        return undefined;
      }
      const json = recordJson(next);
      const version = nextVersionId();
      this.records.set(key, { json, version });
      if (options.keepVersion) this.versions?.keep(key, json);
      return { record: next, version };
    }
  }

  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    return this.peek(key);
  }

  /** The stored record, read at once: for test assertions. */
  peek(key: string): StoreRecord | undefined {
    const held = this.records.get(key);
    return held === undefined ? undefined : (JSON.parse(held.json) as StoreRecord);
  }

  /** The version stored under `key` now, if any: for test recorders. */
  versionOf(key: string): string | undefined {
    return this.records.get(key)?.version;
  }

  /** The stored record with its version, read at once: for test assertions. */
  peekSnapshot(key: string): StoreSnapshot | undefined {
    return this.snapshotOf(this.records.get(key));
  }

  /** Writes a record directly: for test setup. */
  put(key: string, record: StoreRecord): void {
    this.putJson(key, JSON.stringify(jsonClone(record)));
  }

  /** Writes a value's JSON directly, as another program might: for test setup. */
  putJson(key: string, json: string): void {
    this.records.set(key, { json, version: nextVersionId() });
  }

  /** The JSON stored under `key`, byte for byte: for test assertions. */
  peekJson(key: string): string | undefined {
    return this.records.get(key)?.json;
  }

  /** Every key stored now. */
  keys(): string[] {
    return [...this.records.keys()];
  }

  private read(key: string): StoreSnapshot | undefined {
    this.calls.reads += 1;
    return this.snapshotOf(this.records.get(key));
  }

  private snapshotOf(held: Held | undefined): StoreSnapshot | undefined {
    return held && { record: JSON.parse(held.json) as StoreRecord, version: held.version };
  }
}
