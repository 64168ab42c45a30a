/**
 * Trades change two records together or not at all with only single-record conditional
 * writes: a journal record (prepared), a marker on each participant, the decision written to
 * the journal (committed or aborted), then each participant saved with the marker cleared.
 * The journal's decision is the truth; these pure functions read and move it.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainObject, type JsonObject } from '../ports/json.js';
import type { StoreRecord } from '../ports/store.js';
import { describeJsonProblem, findJsonProblem } from './json-problems.js';
import { isWellFormedText } from './keys.js';
import type { ProfileRecord, TradeMarker } from './record.js';

export type TradeState = 'prepared' | 'committed' | 'aborted';

export interface TradeJournal {
  readonly kind: 'datadriver.trade';
  readonly id: string;
  readonly state: TradeState;
  /** Each participant's data after the trade, by profile key. */
  readonly entries: Readonly<Record<string, JsonObject>>;
  readonly time: number;
}

export function preparedJournal(
  id: string,
  entries: Record<string, JsonObject>,
  now: number,
): TradeJournal {
  return { kind: 'datadriver.trade', id, state: 'prepared', entries, time: now };
}

/**
 * Reads a stored trade journal, or refuses it with `Data.InvalidRecord`: a value at a journal
 * key that is not a journal is left untouched (never decided over), and its entries are
 * checked like any record's data, since a recovery loads them.
 */
export function parseJournal(
  value: StoreRecord | undefined,
  key = 'a trade journal key',
): TradeJournal | undefined {
  if (value === undefined) return undefined;
  const wrong = journalProblem(value);
  if (wrong !== undefined) {
    throw new DataDriverError(
      ErrorCode.InvalidRecord,
      `the value stored under ${key} ${wrong}; it was left untouched`,
      { details: { key } },
    );
  }
  return value as unknown as TradeJournal;
}

function journalProblem(value: StoreRecord): string | undefined {
  if (value.kind !== 'datadriver.trade') return 'is not a trade journal';
  if (!isWellFormedText(value.id)) {
    return 'has no trade id';
  }
  const state = value.state;
  if (state !== 'prepared' && state !== 'committed' && state !== 'aborted') {
    return 'has no trade state';
  }
  if (!Number.isFinite(value.time)) return 'has no time';
  if (!isPlainObject(value.entries)) return 'has no entries';
  for (const [participant, entry] of Object.entries(value.entries)) {
    const path = `entries[${JSON.stringify(participant)}]`;
    if (!isPlainObject(entry)) return `has ${path} that is not an object`;
    const problem = findJsonProblem(entry, path);
    if (problem) return `holds ${describeJsonProblem(problem)}`;
  }
  return undefined;
}

/**
 * The journal after deciding it: only a prepared journal moves, so the first decision wins
 * and a second one (a recovering server's abort racing the owner's commit) changes nothing.
 * A missing journal is recorded as aborted, so that a late commit cannot revive it.
 */
export function decidedJournal(
  current: TradeJournal | undefined,
  id: string,
  decision: 'committed' | 'aborted',
  now: number,
): TradeJournal | undefined {
  if (current === undefined) {
    return decision === 'aborted'
      ? { kind: 'datadriver.trade', id, state: 'aborted', entries: {}, time: now }
      : undefined;
  }
  if (current.state !== 'prepared') return undefined;
  // An aborted journal needs no entries: dropping them keeps no player data beyond the trade.
  return decision === 'aborted'
    ? { ...current, state: decision, entries: {} }
    : { ...current, state: decision };
}

/**
 * Whether a load that takes a record may write now, or must first settle the trade the record
 * is marked with (from its journal, then re-run with the outcome): the take writes only over a
 * record whose marker, if any, is the trade just settled.
 */
export function markerGate(
  marker: TradeMarker | undefined,
  settledTrade: string | undefined,
): 'write' | 'settle-first' {
  return marker !== undefined && marker.id !== settledTrade ? 'settle-first' : 'write';
}

/** The decision a participant's marker must follow; a journal that never landed is an abort. */
export function outcomeOf(journal: TradeJournal | undefined): TradeState {
  return journal?.state ?? 'aborted';
}

/**
 * The data a participant loads once its trade is decided. A committed trade applies the
 * journal's entry, unless the holder saved after writing its marker: it saves only once the
 * trade is decided, so that save already carries the trade.
 */
export function settledData(
  record: ProfileRecord,
  key: string,
  marker: TradeMarker,
  journal: TradeJournal | undefined,
): JsonObject {
  const entries = journal?.entries;
  // Own entries only: a participant named `__proto__` must not read the prototype.
  const entry = entries && Object.hasOwn(entries, key) ? entries[key] : undefined;
  const untouched = record.meta.version === marker.version;
  if (outcomeOf(journal) === 'committed' && untouched && entry !== undefined) return entry;
  return record.data;
}
