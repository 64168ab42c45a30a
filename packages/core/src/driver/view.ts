/**
 * A profile as last stored, read without a session (`driver.view`): no lock taken, nobody
 * kicked, nothing written, from any process that has the store. The data is what a load would
 * see (a decided trade settled, migrations run, defaults filled, the schema checked), never the
 * holder's unsaved changes.
 */
import type { DriverContext } from '../context/context.js';
import { LoadCheck } from '../load/load-check.js';
import type { JsonObject } from '../ports/json.js';
import {
  fillDefaults,
  migrateData,
  outcomeOf,
  parseJournal,
  parseRecord,
  serializeData,
  settledData,
} from '../rules/index.js';

export interface ProfileView<T> {
  readonly key: string;
  /** The data as last stored; a copy of its own, which nothing writes back. */
  readonly data: T;
  /** The session lock, when a server holds the profile (its id, its last write's time). */
  readonly lock?: {
    readonly jobId: string;
    /** The holder's clock at its last write of the profile, in ms. */
    readonly time: number;
    /** True when the holder beats presence (its handoff is on). */
    readonly presence: boolean;
  };
  /** Counts the record's committed writes. */
  readonly version: number;
  /**
   * A trade on the profile whose outcome is not written yet: `data` is from before it, and the
   * next load settles it.
   */
  readonly undecidedTrade?: string;
}

export async function viewProfile(
  context: DriverContext,
  key: string,
): Promise<ProfileView<JsonObject> | undefined> {
  const { store, keys, settings } = context;
  const record = parseRecord(key, await store.get(keys.store(key)));
  if (record === undefined) return undefined;
  const { meta } = record;
  let data = record.data;
  let undecidedTrade: string | undefined;
  if (meta.trade) {
    // Read only: a load would abort a prepared journal past its deadline; a view never writes.
    const journalKey = keys.journal(meta.trade.id);
    const journal = parseJournal(await store.get(journalKey), journalKey);
    if (outcomeOf(journal) === 'prepared') undecidedTrade = meta.trade.id;
    else data = settledData(record, key, meta.trade, journal);
  }
  const migrated = migrateData(key, data, meta.schema ?? 0, settings.migrations, meta.compatible);
  // A copy of its own: the caller may change it freely; nothing here is a stored object.
  const copy = JSON.parse(serializeData(key, migrated)) as JsonObject;
  const filled = fillDefaults(copy, settings.defaults);
  const check = new LoadCheck(settings.schema, key);
  if (!check.passes(filled)) {
    await check.settle();
    check.passes(filled);
  }
  const lock = meta.lock;
  return {
    key,
    data: filled,
    version: meta.version,
    ...(lock ? { lock: { jobId: lock.jobId, time: lock.time, presence: lock.presence } } : {}),
    ...(undecidedTrade ? { undecidedTrade } : {}),
  };
}
