/**
 * A trade's journal in the store: its decision, written once (the first decision wins), read
 * back by a recovering load, and deleted once nothing needs it (it holds player data).
 */
import type { DriverContext } from '../driver/context.js';
import { DataDriverError, describeError, ErrorCode } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { Store } from '../ports/store.js';
import {
  decidedJournal,
  parseJournal,
  type TradeJournal,
  type TradeMarker,
  type TradeState,
} from '../rules/index.js';
import { sleep } from '../signal.js';

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
  const journal = parseJournal(stored, journalKey);
  return { trade: marker.id, outcome: journal?.state ?? 'aborted', journal };
}

/** The spacing of a trade's journal retries while the store fails (the longest park). */
function retryMs(ctx: DriverContext): number {
  return ctx.link.timings.parkMaxSeconds * 1000;
}

/**
 * Writes the decision, retrying while the store fails: until it lands the outcome is unknown,
 * and the participants' saves wait for it. Returns the journal's final state.
 */
export async function decideJournal(
  ctx: DriverContext,
  id: string,
  decision: 'committed' | 'aborted',
): Promise<TradeState> {
  const journalKey = ctx.keys.journal(id);
  for (;;) {
    try {
      const stored = await ctx.store.update(journalKey, (current) => {
        const journal = parseJournal(current, journalKey);
        const next = decidedJournal(journal, id, decision, ctx.scheduler.now());
        return next === undefined ? undefined : (next as unknown as JsonObject);
      });
      return parseJournal(stored, journalKey)?.state ?? 'aborted';
    } catch (error) {
      // A value at the journal key that is not this trade's journal never becomes one: the
      // trade fails undecided, and each participant's next save clears its marker.
      if (DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
      await sleep(ctx.scheduler, retryMs(ctx));
    }
  }
}

/**
 * Deletes a settled journal, retrying until it lands (it holds player data it no longer
 * needs): the spacing doubles from `retryMs`, capped at `JOURNAL_DELETE_MAX_MS`, on background
 * timers that never hold a process open. Only the first failure warns, however the spacing
 * grows: a store that stays down must not flood the log.
 */
export async function deleteJournal(ctx: DriverContext, id: string): Promise<void> {
  for (let failures = 1; ; failures += 1) {
    try {
      await ctx.store.update(ctx.keys.journal(id), () => null);
      return;
    } catch (error) {
      if (failures === 1) {
        ctx.logger.warn(
          `could not delete the settled journal of trade ${id} yet: ${describeError(error)}`,
        );
      }
      await sleep(ctx.scheduler, deleteSpacingMs(retryMs(ctx), failures), 'background');
    }
  }
}

/** The wait after the `failures`-th failed deletion: `retryMs`, doubling, at most the cap. */
function deleteSpacingMs(retry: number, failures: number): number {
  // 2 ** failures overflows to Infinity after ~1000 failures, which the cap absorbs.
  return Math.min(retry * 2 ** (failures - 1), JOURNAL_DELETE_MAX_MS);
}
