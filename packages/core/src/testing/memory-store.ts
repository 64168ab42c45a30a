import { jsonClone } from '../json.js';
import { checkStoreKey } from '../keys.js';
import type { Scheduler } from '../ports/scheduler.js';
import type {
  Store,
  StoreRecord,
  StoreTransform,
  UpdateOptions,
  VersionRetention,
} from '../ports/store.js';
import { checkMaxRecordBytes } from '../ports/store-checks.js';
import { SystemScheduler } from '../system-scheduler.js';
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

/**
 * Records in a Map, for tests and a single process. Updates are atomic because the
 * transform runs synchronously between reading and writing. Records are kept as JSON so
 * that what a caller gets back is a copy, as from a real backend. Several simulated servers
 * share one instance, each through its own `FaultyStore`.
 */
export class MemoryStore implements Store {
  readonly specificationVersion = 'v1';
  readonly processLocal = true;
  readonly versions: MemoryVersions | undefined;
  readonly maxRecordBytes: number;
  private readonly records = new Map<string, string>();

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
  ): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    const next = transform(this.peek(key));
    if (next === null) this.records.delete(key);
    else if (next !== undefined) {
      const json = JSON.stringify(next);
      this.records.set(key, json);
      if (options.keepVersion) this.versions?.keep(key, json);
    }
    return this.peek(key);
  }

  async get(key: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    return this.peek(key);
  }

  /** The stored record, read at once: for test assertions. */
  peek(key: string): StoreRecord | undefined {
    const json = this.records.get(key);
    return json === undefined ? undefined : (JSON.parse(json) as StoreRecord);
  }

  /** Writes a record directly: for test setup. */
  put(key: string, record: StoreRecord): void {
    this.records.set(key, JSON.stringify(jsonClone(record)));
  }

  /** Writes a value's JSON directly, as another program might: for test setup. */
  putJson(key: string, json: string): void {
    this.records.set(key, json);
  }

  /** The JSON stored under `key`, byte for byte: for test assertions. */
  peekJson(key: string): string | undefined {
    return this.records.get(key);
  }

  /** Every key stored now. */
  keys(): string[] {
    return [...this.records.keys()];
  }
}
