/**
 * The store's snapshot of each record a session here released, kept for the next load of
 * that key on this server: its first write goes out with the snapshot as `expected`, so a
 * player back on the server they just left loads in one compare-and-set, with no read. A
 * snapshot the record has moved past costs no extra round trip: the compare-and-set fails, its
 * reply carries the record stored now, and the load rules run on that, as after a read.
 *
 * Only a release's snapshot is kept, and not one another server asked for (it loads next):
 * its record holds a copy of the data parsed from the JSON written, never an object the game
 * can still change. Bounded, because a server sees many players leave (all of them at a
 * shutdown): the most recent `MAX_ENTRIES`, holding at most `MAX_CHARS` of data JSON in all,
 * none older than `MAX_AGE_MS` (a rejoin comes seconds after the leave). The driver's close
 * forgets them all.
 */
import { ChurnMap } from '../ports/churn-map.js';
import type { StoreSnapshot } from '../ports/store.js';

const MAX_ENTRIES = 1024;
const MAX_AGE_MS = 60_000;
/**
 * About 48 MB in memory at most, whatever the size of the profiles: each snapshot's data, and
 * the JSON it was parsed from.
 */
const MAX_CHARS = 16 * 1024 * 1024;

/** A released record's snapshot, and its data's JSON when known: the next take's JSON. */
export interface Released {
  readonly snapshot: StoreSnapshot;
  /** `JSON.stringify(snapshot.record.data)`, as the release wrote it. */
  readonly dataJson: string | undefined;
}

interface Kept extends Released {
  readonly at: number;
  /** The length of its data's JSON: what it holds in memory, near enough. */
  readonly chars: number;
}

export class ReleasedSnapshots {
  // In insertion order, as a Map, and `keep` re-inserts: the first entry is the oldest.
  readonly #kept = new ChurnMap<string, Kept>();
  #chars = 0;

  constructor(private readonly now: () => number) {}

  /**
   * Keeps `snapshot` (its data's JSON `chars` long, and that JSON when given) as the record of
   * `key` this server last released, or forgets `key`.
   */
  keep(key: string, snapshot: StoreSnapshot | undefined, chars = 0, dataJson?: string): void {
    const at = this.now();
    if (snapshot === undefined || chars > MAX_CHARS) {
      this.#forget(key);
    } else {
      // The key's old entry goes in the lookup that sets the new one, last: the newest.
      const old = this.#kept.replace(key, { snapshot, dataJson, at, chars });
      this.#chars += chars - (old?.chars ?? 0);
    }
    // Keys here are strings: `undefined` is none left.
    for (let oldest = this.#kept.firstKey(); oldest !== undefined; oldest = this.#kept.firstKey()) {
      const over = this.#kept.size > MAX_ENTRIES || this.#chars > MAX_CHARS;
      if (!over && at - (this.#kept.get(oldest) as Kept).at <= MAX_AGE_MS) break;
      this.#forget(oldest);
    }
  }

  /**
   * What is kept for `key`, if still fresh at `now` (the clock's reading, when the caller has
   * it); either way it is not kept any more.
   */
  take(key: string, now?: number): Released | undefined {
    const kept = this.#forget(key);
    if (kept === undefined) return undefined;
    return (now ?? this.now()) - kept.at <= MAX_AGE_MS ? kept : undefined;
  }

  /** Forgets every snapshot (the driver closed). */
  clear(): void {
    this.#kept.clear();
    this.#chars = 0;
  }

  /** Forgets `key`, and gives what was kept for it, if anything. */
  #forget(key: string): Kept | undefined {
    const kept = this.#kept.take(key);
    if (kept !== undefined) this.#chars -= kept.chars;
    return kept;
  }

  /** How many snapshots are kept (for tests). */
  get size(): number {
    return this.#kept.size;
  }
}

export const RELEASED_SNAPSHOT_LIMITS = {
  maxEntries: MAX_ENTRIES,
  maxAgeMs: MAX_AGE_MS,
  maxChars: MAX_CHARS,
};
