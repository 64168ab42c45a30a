/**
 * Everything on call needs about one profile: its lock and the holder's presence, the released
 * token, a pending trade and its journal, schema, user ids, size, the newest versions, and what
 * a server's load would decide now. Reads only.
 */
import type { DataDriver } from '@datadriver/core';
import {
  DataDriverError,
  describeError,
  ErrorCode,
  type Presence,
  type Store,
  type StoreVersion,
} from '@datadriver/core/ports';
import {
  decidedJournal,
  inboxKeyOf,
  inboxPrefix,
  outcomeOf,
  type ProfileRecord,
  parseJournal,
  parseRecord,
  settledData,
  type TradeState,
} from '@datadriver/core/rules';
import { readInbox } from './inbox-read.js';
import { type ExpiryReader, type Liveness, livenessOf, type Watch } from './liveness.js';
import { storeKeyOf } from './store-keys.js';
import { type Verdict, type VerdictInput, verdictOf } from './verdict.js';

export interface Inspection {
  readonly driver: string;
  readonly key: string;
  readonly storeKey: string;
  readonly where: string;
  readonly found: boolean;
  /** The stored record's JSON size in bytes. */
  readonly sizeBytes?: number;
  /** Committed writes so far. */
  readonly writes?: number;
  readonly schema?: number;
  readonly userIds?: readonly string[];
  readonly releasedToken?: string;
  readonly lock?: {
    readonly jobId: string;
    readonly token: string;
    readonly time: number;
    /** By this machine's clock, against the holder's: clock skew shifts it. */
    readonly ageMs: number;
    readonly presence: boolean;
  };
  readonly holder?: Liveness;
  readonly trade?: {
    readonly id: string;
    readonly journal: string;
    /** The journal's decision; `missing` reads as aborted. */
    readonly state: TradeState | 'missing';
    /** What a load does first: settle it from the journal. */
    readonly outcome: TradeState;
    /** A save after the marker already carries the trade (nothing left to apply). */
    readonly settledBySave: boolean;
    /** True when the load would replace the data with the journal's entry. */
    readonly appliesJournalData: boolean;
  };
  /** The newest versions, newest first; `undefined` when the store keeps none. */
  readonly versions?: readonly StoreVersion[];
  readonly versionsError?: string;
  readonly verdict: Verdict;
  /** The record's data, with `--data`. */
  readonly data?: unknown;
  /** Its inbox: how many messages wait, and the oldest (one that always fails stays oldest). */
  readonly messages?: {
    readonly pending: number;
    readonly oldest?: { readonly id: string; readonly at: number; readonly ageMs: number };
  };
  /** Why the inbox could not be read (a foreign value under its key). */
  readonly messagesError?: string;
}

export interface InspectContext {
  readonly store: Store;
  readonly presence: Presence | undefined;
  readonly presenceExpiry: ExpiryReader | undefined;
  /** A driver of the inspected name, for its `versions` (it writes nothing). */
  readonly driver: DataDriver<object>;
  readonly where: string;
  readonly watch: Watch;
  readonly verdict: Omit<VerdictInput, 'now' | 'liveness'>;
  readonly now: () => number;
  readonly versionsLimit: number;
  readonly withData: boolean;
}

export async function inspect(context: InspectContext, key: string): Promise<Inspection> {
  const driver = context.driver.name;
  const storeKey = storeKeyOf(driver, key);
  const value = await context.store.get(storeKey);
  const record = parseRecord(key, value);
  const base = { driver, key, storeKey, where: context.where };
  if (!record || !value) {
    await refuseEmptyNamespace(context.store, context.where, driver);
    const verdict = verdictOf(undefined, {
      ...context.verdict,
      now: context.now(),
      liveness: undefined,
    });
    return {
      ...base,
      found: false,
      ...(await versionsOf(context, key)),
      ...(await messagesOf(context, key)),
      verdict,
    };
  }
  const { meta } = record;
  const holder =
    meta.lock && context.presence
      ? await livenessOf(context.presence, meta.lock.jobId, context.watch, context.presenceExpiry)
      : undefined;
  // The clock is read after the presence answer: a watched answer took a TTL.
  const now = context.now();
  const verdict = verdictOf(record, { ...context.verdict, now, liveness: holder });
  return {
    ...base,
    found: true,
    sizeBytes: Buffer.byteLength(JSON.stringify(value), 'utf8'),
    writes: meta.version,
    schema: meta.schema ?? 0,
    userIds: meta.userIds ?? [],
    ...(meta.releasedToken === undefined ? {} : { releasedToken: meta.releasedToken }),
    ...(meta.lock ? { lock: { ...meta.lock, ageMs: now - meta.lock.time } } : {}),
    ...(holder ? { holder } : {}),
    ...(meta.trade ? { trade: await tradeOf(context.store, key, record, now) } : {}),
    ...(await versionsOf(context, key)),
    ...(await messagesOf(context, key, now)),
    verdict,
    ...(context.withData ? { data: record.data } : {}),
  };
}

async function tradeOf(store: Store, key: string, record: ProfileRecord, now: number) {
  const marker = record.meta.trade!;
  const journal = parseJournal(await store.get(marker.journal));
  // What the next load does first: core's recovery decides the journal (a prepared one is
  // aborted, the first decision wins), then settles the record from it.
  const decided = decidedJournal(journal, marker.id, 'aborted', now) ?? journal;
  return {
    id: marker.id,
    journal: marker.journal,
    state: journal?.state ?? ('missing' as const),
    outcome: outcomeOf(decided),
    settledBySave: record.meta.version !== marker.version,
    appliesJournalData: settledData(record, key, marker, decided) !== record.data,
  };
}

async function versionsOf(
  context: InspectContext,
  key: string,
): Promise<{ versions?: readonly StoreVersion[]; versionsError?: string }> {
  if (!context.store.versions) return {};
  try {
    return { versions: await context.driver.versions(key, { limit: context.versionsLimit }) };
  } catch (error) {
    return { versionsError: describeError(error) };
  }
}

async function messagesOf(
  context: InspectContext,
  key: string,
  now = context.now(),
): Promise<Pick<Inspection, 'messages' | 'messagesError'>> {
  try {
    const pending = (await readInbox(context.store, inboxKeyOf(context.driver.name, key)))?.pending;
    if (!pending?.length) return { messages: { pending: 0 } };
    // The first received; `at` is the sender's clock, so the oldest by time.
    const first = pending.reduce((oldest, message) => (message.at < oldest.at ? message : oldest));
    const oldest = { id: first.id, at: first.at, ageMs: now - first.at };
    return { messages: { pending: pending.length, oldest } };
  } catch (error) {
    if (!DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
    return { messagesError: describeError(error) };
  }
}

/**
 * A missing record is an answer when the driver has others; nothing at all under the driver
 * or the prefix is more likely a wrong `--prefix`, `--table` or driver name.
 */
export async function refuseEmptyNamespace(
  store: Store,
  where: string,
  driver: string,
): Promise<void> {
  if (!store.scan) return;
  if (await hasAny(store.scan(`${driver}/`))) return;
  // A profile never loaded yet can have an inbox: messages sent to it.
  if (await hasAny(store.scan(inboxPrefix(driver)))) return;
  const anything = await hasAny(store.scan(''));
  throw new DataDriverError(
    ErrorCode.Misconfigured,
    anything
      ? `no record of driver ${JSON.stringify(driver)} in ${where}: check the driver name (the servers' DataDriver name)`
      : `nothing is stored in ${where}: check --prefix, --table and the URL or endpoint`,
    { details: { driver, where } },
  );
}

async function hasAny(keys: AsyncIterable<string>): Promise<boolean> {
  for await (const _ of keys) return true;
  return false;
}
