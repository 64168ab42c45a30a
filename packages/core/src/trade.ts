/**
 * Trades: two profiles change together or not at all. The journal is written first
 * (prepared), then a marker on each participant, then the decision (committed) in the
 * journal: the one write that makes the trade happen. Each participant is then saved, which
 * clears its marker. A crash at any point leaves a marker that the next load settles from the
 * journal (see `recoverTrade`), under the same ownership rule as the load itself.
 */
import { DataDriverError, describeError, ErrorCode } from './errors.js';
import type { JsonObject } from './json.js';
import type { Logger } from './ports/logger.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Store } from './ports/store.js';
import type { ProfileSession } from './profile.js';
import {
  checkRecordSize,
  decidedJournal,
  decideSave,
  defineOwn,
  markedRecord,
  parseJournal,
  parseRecord,
  preparedJournal,
  serializeData,
  type TradeJournal,
  type TradeMarker,
  type TradeState,
} from './rules/index.js';
import { sleep } from './signal.js';

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

export interface TradeRun {
  readonly id: string;
  readonly journalKey: string;
  readonly store: Store;
  readonly scheduler: Scheduler;
  readonly storeKey: (key: string) => string;
  /** Spacing of decision retries while the store fails. */
  readonly retryMs: number;
  readonly logger: Logger;
}

/**
 * Runs a trade between two active sessions of one driver. `apply` changes copies of both
 * datas; they replace the profiles' data only once the journal says committed.
 */
export async function runTrade(
  run: TradeRun,
  sessions: readonly [ProfileSession, ProfileSession],
  apply: (a: JsonObject, b: JsonObject) => void,
): Promise<void> {
  // Checked before the copy: a copy through JSON would silently turn a Date into a string.
  const copies = sessions.map(
    (session) => JSON.parse(serializeData(session.key, session.data)) as JsonObject,
  ) as [JsonObject, JsonObject];
  try {
    apply(copies[0], copies[1]);
  } catch (error) {
    throw new DataDriverError(ErrorCode.TradeFailed, 'the trade function threw; nothing changed', {
      cause: error,
    });
  }
  sessions.forEach((session, index) => void serializeData(session.key, copies[index]));
  const journal = journalOf(run, sessions, copies);
  let decide: () => void = () => undefined;
  const decided = new Promise<void>((resolve) => {
    decide = resolve;
  });
  for (const session of sessions) session.trade = { id: run.id, decided };
  try {
    const outcome = await prepareAndDecide(run, sessions, journal);
    if (outcome !== 'committed') {
      throw new DataDriverError(
        ErrorCode.TradeFailed,
        `trade ${run.id} was aborted by a recovering server`,
      );
    }
    replaceContents(sessions[0].data, copies[0]);
    replaceContents(sessions[1].data, copies[1]);
  } finally {
    for (const session of sessions) session.trade = undefined;
    decide();
    settle(run, sessions);
  }
}

/**
 * Saves each participant, which clears its marker (a failure is retried by autosave; a
 * leaving participant's release clears it too). Once both markers are gone the journal is
 * deleted: nothing can need it, and it holds player data.
 */
function settle(run: TradeRun, sessions: readonly [ProfileSession, ProfileSession]): void {
  const cleared = sessions.map((session) => {
    const next = session.nextWrite();
    // A failed save is reported as profile.save-failed; the next write that lands counts.
    if (session.state === 'active') session.save('trade').catch(() => undefined);
    return next;
  });
  Promise.all(cleared).then(
    () => deleteJournal(run),
    () => undefined, // a lock was taken: the new holder's load settles that marker
  );
}

/**
 * Deletes a settled journal, retrying until it lands (it holds player data it no longer
 * needs): the spacing doubles from `retryMs`, capped at `JOURNAL_DELETE_MAX_MS`, on background
 * timers that never hold a process open. Only the first failure warns, however the spacing
 * grows: a store that stays down must not flood the log.
 */
async function deleteJournal(run: TradeRun): Promise<void> {
  for (let failures = 1; ; failures += 1) {
    try {
      await run.store.update(run.journalKey, () => null);
      return;
    } catch (error) {
      if (failures === 1) {
        run.logger.warn(
          `could not delete the settled journal of trade ${run.id} yet: ${describeError(error)}`,
        );
      }
      await sleep(run.scheduler, journalDeleteSpacingMs(run.retryMs, failures), 'background');
    }
  }
}

/** The wait after the `failures`-th failed deletion: `retryMs`, doubling, at most the cap. */
function journalDeleteSpacingMs(retryMs: number, failures: number): number {
  // 2 ** failures overflows to Infinity after ~1000 failures, which the cap absorbs.
  return Math.min(retryMs * 2 ** (failures - 1), JOURNAL_DELETE_MAX_MS);
}

/**
 * The prepared journal, checked against the store's limit before any write: it holds both
 * datas, so it can be over the limit when neither record is.
 */
function journalOf(
  run: TradeRun,
  sessions: readonly [ProfileSession, ProfileSession],
  copies: readonly [JsonObject, JsonObject],
): JsonObject {
  // Built as own properties: a participant whose key is `__proto__` keeps its entry.
  const entries: Record<string, JsonObject> = Object.fromEntries(
    sessions.map((session, index) => [session.key, copies[index]!]),
  );
  const journal = preparedJournal(run.id, entries, run.scheduler.now());
  return checkRecordSize(
    run.journalKey,
    journal as unknown as JsonObject,
    run.store.maxRecordBytes,
  );
}

async function prepareAndDecide(
  run: TradeRun,
  sessions: readonly [ProfileSession, ProfileSession],
  journal: JsonObject,
): Promise<TradeState> {
  try {
    await run.store.update(run.journalKey, () => journal);
    for (const session of sessions) await session.enqueue(() => writeMarker(run, session));
  } catch (error) {
    // Not decided yet: abort, so a marker that did land is settled as nothing happened.
    await decideJournal(run, 'aborted');
    throw new DataDriverError(
      ErrorCode.TradeFailed,
      `trade ${run.id} could not be prepared: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
  return decideJournal(run, 'committed');
}

async function writeMarker(run: TradeRun, session: ProfileSession): Promise<void> {
  let lost = false;
  // What an abort leaves this participant with: its data as it is now, earlier trades included.
  const json = serializeData(session.key, session.data);
  await run.store.update(run.storeKey(session.key), (current) => {
    const record = parseRecord(session.key, current);
    if (record === undefined || decideSave(record, session.token).kind !== 'write') {
      lost = true;
      return undefined;
    }
    const data = JSON.parse(json) as JsonObject;
    const marker = { id: run.id, journal: run.journalKey };
    return session.fitting(markedRecord(record, data, marker, session.writer(), session.extras()));
  });
  if (lost) {
    throw new DataDriverError(
      ErrorCode.LockLost,
      `the lock of ${session.key} was taken before the trade`,
    );
  }
}

/**
 * Writes the decision, retrying while the store fails: until it lands the outcome is unknown,
 * and the participants' saves wait for it. Returns the journal's final state.
 */
async function decideJournal(
  run: TradeRun,
  decision: 'committed' | 'aborted',
): Promise<TradeState> {
  for (;;) {
    try {
      const stored = await run.store.update(run.journalKey, (current) => {
        const journal = parseJournal(current, run.journalKey);
        const next = decidedJournal(journal, run.id, decision, run.scheduler.now());
        return next === undefined ? undefined : (next as unknown as JsonObject);
      });
      return parseJournal(stored, run.journalKey)?.state ?? 'aborted';
    } catch (error) {
      // A value at the journal key that is not this trade's journal never becomes one: the
      // trade fails undecided, and each participant's next save clears its marker.
      if (DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
      await sleep(run.scheduler, run.retryMs);
    }
  }
}

/**
 * Replaces an object's contents in place, so references the game holds stay current. Each key
 * is defined as an own property (never assigned): a key named `__proto__` stays data and the
 * object's prototype never changes.
 */
function replaceContents(target: JsonObject, source: JsonObject): void {
  for (const key of Object.keys(target)) delete target[key];
  for (const [key, value] of Object.entries(source)) defineOwn(target, key, value);
}
