/**
 * The JSON of a record a transform returned, stringified once: core measures it against the
 * store's `maxRecordBytes` inside the transform, and the store then writes that same string.
 * Records are never changed once a transform returned them (the port's rule), so the string
 * of the last record stringified is kept, by identity, for the store's call that comes next.
 * One slot, not a WeakMap: a WeakMap entry per write was a measurable part of each write's
 * garbage-collection cost, and the store asks in the same turn as the transform returns.
 */
import type { StoreRecord } from './store.js';

let lastRecord: StoreRecord | undefined;
let lastJson = '';
/** The last meta whose JSON its builder made (`withMetaJson`), and that JSON. */
let lastMeta: object | undefined;
let lastMetaJson = '';

/**
 * `meta`, with `json` as its JSON: the caller built it as exactly `JSON.stringify(meta)`, field
 * by field in the order it set them (a record's meta is built just before its record's JSON
 * is made, so one slot serves, as for the record).
 */
export function withMetaJson<M extends object>(meta: M, json: string): M {
  lastMeta = meta;
  lastMetaJson = json;
  return meta;
}

/**
 * `record`, with its JSON made from `dataJson`, the JSON its data was parsed from: a save
 * stringifies the data once to check it, and the record's JSON reuses that text rather than
 * stringifying the data again. `record` must be `{ data, meta }` in that order, with `data`
 * equal to `JSON.parse(dataJson)` (the session's record builders), so the text is exactly
 * `JSON.stringify(record)`.
 */
export function withDataJson<R extends { readonly meta: object }>(record: R, dataJson: string): R {
  const { meta } = record;
  const metaJson = meta === lastMeta ? lastMetaJson : JSON.stringify(meta);
  lastRecord = record as unknown as StoreRecord;
  lastJson = `{"data":${dataJson},"meta":${metaJson}}`;
  return record;
}

/**
 * `record`, with `json` as its JSON: the caller built it as exactly `JSON.stringify(record)`
 * (a batch of messages grows an inbox's JSON by each message's rather than stringifying the
 * whole inbox per message; tested against `JSON.stringify`).
 */
export function withRecordJson<R extends StoreRecord>(record: R, json: string): R {
  lastRecord = record;
  lastJson = json;
  return record;
}

/** `JSON.stringify(record)`, computed once for the record just measured. */
export function recordJson(record: StoreRecord): string {
  if (record === lastRecord) return lastJson;
  const json = JSON.stringify(record);
  lastRecord = record;
  lastJson = json;
  return json;
}
