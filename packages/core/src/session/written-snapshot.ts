/**
 * What a session last wrote, and the autosave's question about it: would a write now store
 * anything new (`autosaveWrites`)? Read by the session's writes (`session-io.ts`) and by the
 * session itself (its load's snapshot is the first one).
 */
import type { JsonObject } from '../ports/json.js';
import type { StoreSnapshot } from '../ports/store.js';
import { autosaveWrites, type ProfileRecord, type RecordMeta } from '../rules/index.js';
import type { Written } from './guarded-write.js';
import type { SessionStart } from './session-terms.js';
import type { SessionWriter } from './session-writes.js';

/** What a session last wrote: a save keeps a version only when the data changed. */
export interface WrittenSnapshot {
  readonly json: string;
  /** The record's version after that write, when the store reported it. */
  readonly version: number | undefined;
  /**
   * The store's snapshot after that write, while no write of the session has rejected since.
   * Its record's data may be the session's live data (a load's): session writes read only
   * its meta.
   */
  readonly stored?: StoreSnapshot | undefined;
  /**
   * `JSON.parse(json)`, as the record that write built and stored holds it, when it stored
   * one: the next write of the same JSON shares it (records are never changed), and the next
   * take of a released record here reuses `json` rather than stringify it again.
   */
  readonly parsed?: JsonObject | undefined;
  /**
   * When that write began, by this server's clock (at or before the lock time it stored), for
   * the autosave's rule (`autosaveWrites`); `undefined` when the store may hold other data than
   * `json` (a load that filled in defaults), so the next autosave writes.
   */
  readonly at: number | undefined;
}

/** The meta of the record that write left, while it is known. */
export function committedMeta(written: Pick<WrittenSnapshot, 'stored'>): RecordMeta | undefined {
  return (written.stored?.record as ProfileRecord | undefined)?.meta;
}

/**
 * A session's first snapshot: what its load took. Its lock time starts the autosave's refresh
 * clock (a third of the TTL after it), unless the load filled in defaults the store lacks.
 */
export function loadedSnapshot(start: SessionStart): WrittenSnapshot {
  const { version, stored } = start;
  const at = start.filledDefaults ? undefined : committedMeta(start)?.lock?.time;
  // The take's JSON when it made one: the data is its shallow copy, with no default added.
  const json = start.filledDefaults ? undefined : start.dataJson;
  return { json: json ?? JSON.stringify(start.data), version, stored, at };
}

/** Whether an autosave of `json` by `writer` writes, after `written` (`autosaveWrites`). */
export function autosaveWritesAfter(
  written: WrittenSnapshot,
  json: string,
  writer: SessionWriter,
  lockTtlSeconds: number,
): boolean {
  const meta = committedMeta(written);
  const { at } = written;
  return autosaveWrites({
    last: meta === undefined || at === undefined ? undefined : { json: written.json, meta, at },
    json,
    writer: writer.writer(),
    extras: writer.extras(),
    lockTtlSeconds,
  });
}

/**
 * The session's last write after a write's `result` (begun `at`; `json`, for a save or the
 * release): unknown after a failure (it may have committed), the store's record after a lost
 * lock or a write of no data, else what the write stored.
 */
export function afterWrite(
  written: WrittenSnapshot,
  result: Written<{ readonly kind: string }>,
  at: number,
  json: string | undefined,
): WrittenSnapshot {
  if (!result.ok) return { ...written, stored: undefined, parsed: undefined };
  const stored = result.snapshot;
  if (result.decision.kind === 'lost' || json === undefined) {
    return { ...written, stored, parsed: undefined, at };
  }
  const version = result.stored?.meta.version;
  // The record the write built from `json`, when it stored it (never the store's copy).
  const parsed = result.wrote ? (result.stored?.data as JsonObject | undefined) : undefined;
  return { json, version, stored, parsed, at };
}
