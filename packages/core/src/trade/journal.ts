/**
 * A trade's journal in the store: its decision, written once (the first decision wins), read
 * back by a recovering load, and deleted once nothing needs it (it holds player data).
 */
import type { DriverContext } from '../context/context.js';
import { sleep } from '../events/signal.js';
import { DataDriverError, describeError, ErrorCode } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import type { Store } from '../ports/store.js';
import {
  decidedJournal,
  defineOwn,
  parseJournal,
  parseRecord,
  type TradeJournal,
  type TradeMarker,
  type TradeState,
} from '../rules/index.js';
import { journalPrefix, parseStoreKey } from '../rules/keys.js';

/**
 * The longest spacing between retries of a settled journal's deletion, whatever `retryMs`
 * is. Exported because a test harness that waits for journals to clear must wait this long.
 */
export const JOURNAL_DELETE_MAX_MS = 30_000;

export interface RecoveredTrade {
  readonly trade: string;
  readonly outcome: TradeState;
  readonly journal: TradeJournal | undefined;
}

/**
 * Decides a trade found on a record during a load: a prepared journal is aborted (the first
 * decision wins, so an owner's commit that landed first is kept), then the outcome is read.
 */
export async function recoverTrade(
  store: Store,
  journalKey: string,
  marker: TradeMarker,
  now: number,
): Promise<RecoveredTrade> {
  const stored = await store.update(journalKey, (current) => {
    const next = decidedJournal(parseJournal(current, journalKey), marker.id, 'aborted', now);
    return next === undefined ? undefined : (next as unknown as JsonObject);
  });
  const journal = parseJournal(stored?.record, journalKey);
  return { trade: marker.id, outcome: journal?.state ?? 'aborted', journal };
}

/**
 * Drops what a decided journal keeps for `key` once `key`'s record no longer carries the
 * trade's marker (its load settled it, or it was erased): the journal keeps only the entries
 * of participants whose records still carry the marker, and is deleted when none does. A
 * journal that does not name `key` (but names others) is left alone, as is a prepared one.
 */
export async function forgetParticipant(
  context: DriverContext,
  tradeId: string,
  key: string,
): Promise<void> {
  const journalKey = context.keys.journal(tradeId);
  const current = parseJournal(await context.store.get(journalKey), journalKey);
  if (!decidedFor(current, tradeId, key)) return;
  const needed: string[] = [];
  for (const other of Object.keys(current.entries)) {
    if (other !== key && (await carriesMarker(context, other, tradeId))) needed.push(other);
  }
  await context.store.update(journalKey, (value) => {
    const journal = parseJournal(value, journalKey);
    if (!decidedFor(journal, tradeId, key)) return undefined;
    if (needed.length === 0) return null;
    const entries: Record<string, JsonObject> = {};
    for (const other of needed) {
      if (Object.hasOwn(journal.entries, other)) defineOwn(entries, other, journal.entries[other]);
    }
    return { ...journal, entries } as unknown as JsonObject;
  });
}

/**
 * After an erasure: every decided journal of this driver that names `key` forgets it, found
 * through the store's `scan` (a store without one leaves those the erasing load did not
 * settle). Journals are few: those of trades still settling, or whose owner stopped first.
 */
export async function forgetInJournals(context: DriverContext, key: string): Promise<void> {
  const scan = context.store.scan?.bind(context.store);
  if (!scan) return;
  for await (const storeKey of scan(journalPrefix(context.name))) {
    const owner = parseStoreKey(storeKey);
    if (owner?.kind === 'journal' && owner.driver === context.name) {
      await forgetParticipant(context, owner.trade, key);
    }
  }
}

function decidedFor(
  journal: TradeJournal | undefined,
  tradeId: string,
  key: string,
): journal is TradeJournal {
  if (journal === undefined || journal.id !== tradeId || journal.state === 'prepared') return false;
  const named = Object.keys(journal.entries);
  return named.length === 0 || Object.hasOwn(journal.entries, key);
}

/** True when `key`'s record carries trade `tradeId`'s marker (or cannot be read as a record). */
async function carriesMarker(
  context: DriverContext,
  key: string,
  tradeId: string,
): Promise<boolean> {
  try {
    return (
      parseRecord(key, await context.store.get(context.keys.store(key)))?.meta.trade?.id === tradeId
    );
  } catch (error) {
    if (DataDriverError.is(error, ErrorCode.InvalidRecord)) return true; // keep what it may need
    throw error;
  }
}

/** The spacing of a trade's journal retries while the store fails (the longest park). */
function retryMs(context: DriverContext): number {
  return context.link.timings.parkMaxSeconds * 1000;
}

/**
 * Writes the decision, retrying while the store fails: until it lands the outcome is unknown,
 * and the participants' saves wait for it. Returns the journal's final state.
 */
export async function decideJournal(
  context: DriverContext,
  id: string,
  decision: 'committed' | 'aborted',
  /** True once the driver has closed: the participants' next loads settle the trade. */
  closed: () => boolean,
): Promise<TradeState> {
  const journalKey = context.keys.journal(id);
  for (let failures = 1; ; failures += 1) {
    try {
      const stored = await context.store.update(journalKey, (current) => {
        const journal = parseJournal(current, journalKey);
        const next = decidedJournal(journal, id, decision, context.scheduler.now());
        return next === undefined ? undefined : (next as unknown as JsonObject);
      });
      return parseJournal(stored?.record, journalKey)?.state ?? 'aborted';
    } catch (error) {
      // A value at the journal key that is not this trade's journal never becomes one: the
      // trade fails undecided, and each participant's next save clears its marker.
      if (DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
      if (failures === 1) {
        context.logger.warn(
          `could not write the decision of trade ${id} yet; retrying every ${retryMs(context) / 1000} s until it lands or the driver closes: ${describeError(error)}`,
        );
      }
      await sleep(context.scheduler, retryMs(context));
      if (closed()) throw undecided(context, id, decision, error);
    }
  }
}

/**
 * Deletes a settled journal, retrying until it lands (it holds player data it no longer
 * needs): the spacing doubles from `retryMs`, capped at `JOURNAL_DELETE_MAX_MS`, on background
 * timers that never hold a process open. Only the first failure warns, however the spacing
 * grows: a store that stays down must not flood the log.
 */
export async function deleteJournal(context: DriverContext, id: string): Promise<void> {
  for (let failures = 1; ; failures += 1) {
    try {
      await context.store.update(context.keys.journal(id), () => null);
      return;
    } catch (error) {
      if (failures === 1) {
        context.logger.warn(
          `could not delete the settled journal of trade ${id} yet: ${describeError(error)}`,
        );
      }
      await sleep(context.scheduler, deleteSpacingMs(retryMs(context), failures), 'background');
    }
  }
}

/** The wait after the `failures`-th failed deletion: `retryMs`, doubling, at most the cap. */
function deleteSpacingMs(retry: number, failures: number): number {
  // 2 ** failures overflows to Infinity after ~1000 failures, which the cap absorbs.
  return Math.min(retry * 2 ** (failures - 1), JOURNAL_DELETE_MAX_MS);
}

/**
 * The driver closed before `decision` was written. Its details name the decision: only a
 * commit may have landed unseen (an abort is never followed by a commit: nothing but this
 * trade's own code writes one, and recovery writes only aborts).
 */
function undecided(
  context: DriverContext,
  id: string,
  decision: 'committed' | 'aborted',
  error: unknown,
): DataDriverError {
  const what = decision === 'committed' ? 'decision' : 'abort';
  return new DataDriverError(
    ErrorCode.Closed,
    `${context.name} closed before the ${what} of trade ${id} could be written; each participant keeps its marker, and its next load settles the trade from the journal`,
    { cause: error, details: { trade: id, decision } },
  );
}
