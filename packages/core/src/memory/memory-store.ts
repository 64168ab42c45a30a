import { jsonClone } from '../json.js';
import type { Store, StoreRecord, StoreTransform } from '../ports/store.js';

/**
 * Records in a Map, for tests and a single process. Updates are atomic because the
 * transform runs synchronously between reading and writing. Records are kept as JSON so
 * that what a caller gets back is a copy, as from a real backend. Several simulated servers
 * share one instance, each through its own `FaultyStore`.
 */
export class MemoryStore implements Store {
  readonly specificationVersion = 'v1';
  readonly processLocal = true;
  private readonly records = new Map<string, string>();

  async update(key: string, transform: StoreTransform): Promise<StoreRecord | undefined> {
    const next = transform(this.peek(key));
    if (next === null) this.records.delete(key);
    else if (next !== undefined) this.records.set(key, JSON.stringify(next));
    return this.peek(key);
  }

  async get(key: string): Promise<StoreRecord | undefined> {
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

  /** Every key stored now. */
  keys(): string[] {
    return [...this.records.keys()];
  }
}
