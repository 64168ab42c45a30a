import type { Scheduler } from '../ports/scheduler.js';
import type {
  StoreRecord,
  StoreVersion,
  StoreVersions,
  VersionQuery,
  VersionRetention,
} from '../ports/store.js';
import { checkVersionQuery, checkVersionRetention } from '../ports/store-checks.js';
import { checkStoreKey } from '../rules/keys.js';

interface Kept {
  readonly id: string;
  readonly time: number;
  readonly json: string;
}

/** Kept versions in memory, newest first, pruned by count and age on every write. */
export class MemoryVersions implements StoreVersions {
  private readonly history = new Map<string, Kept[]>();
  private sequence = 0;

  constructor(
    private readonly retention: VersionRetention,
    private readonly clock: Pick<Scheduler, 'now'>,
  ) {
    checkVersionRetention(retention);
  }

  /** Keeps `json` as the newest version of `key`. */
  keep(key: string, json: string): void {
    this.sequence += 1;
    const kept: Kept = { id: String(this.sequence), time: this.clock.now(), json };
    this.history.set(key, this.prune([kept, ...(this.history.get(key) ?? [])]));
  }

  async list(key: string, query: VersionQuery = {}): Promise<readonly StoreVersion[]> {
    checkStoreKey(key);
    checkVersionQuery(query);
    const matching = this.prune(this.history.get(key) ?? []).filter(
      (kept) =>
        (query.before === undefined || kept.time <= query.before) &&
        (query.after === undefined || kept.time >= query.after),
    );
    return matching.slice(0, query.limit ?? matching.length).map(({ id, time }) => ({ id, time }));
  }

  async read(key: string, id: string): Promise<StoreRecord | undefined> {
    checkStoreKey(key);
    const kept = this.history.get(key)?.find((version) => version.id === id);
    return kept === undefined ? undefined : (JSON.parse(kept.json) as StoreRecord);
  }

  async purge(key: string): Promise<void> {
    checkStoreKey(key);
    this.history.delete(key);
  }

  private prune(versions: Kept[]): Kept[] {
    const { keep, maxAgeSeconds } = this.retention;
    const oldest =
      maxAgeSeconds === undefined ? -Infinity : this.clock.now() - maxAgeSeconds * 1000;
    return versions.filter((kept) => kept.time >= oldest).slice(0, keep ?? versions.length);
  }
}
