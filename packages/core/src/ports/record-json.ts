/**
 * The JSON of a record a transform returned, stringified once: core measures it against the
 * store's `maxRecordBytes` before the store writes it, and the store writes that same string.
 * Keyed by the record object, which nobody changes once a transform returned it (the port's
 * rule), and dropped with it.
 */
import type { StoreRecord } from './store.js';

const made = new WeakMap<StoreRecord, string>();

/** `JSON.stringify(record)`, computed once per record object. */
export function recordJson(record: StoreRecord): string {
  let json = made.get(record);
  if (json === undefined) {
    json = JSON.stringify(record);
    made.set(record, json);
  }
  return json;
}
