/**
 * Trades: two profiles change together or not at all. The journal is written first
 * (prepared), then a marker on each participant, then the decision (committed) in the
 * journal: the one write that makes the trade happen. Each participant is then saved, which
 * clears its marker. A crash at any point leaves a marker that the next load settles from the
 * journal (see `recoverTrade`), under the same ownership rule as the load itself.
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, describeError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import {
  checkRecordSize,
  defineOwn,
  preparedJournal,
  serializeData,
  type TradeState,
} from '../rules/index.js';
import type { ProfileSession } from '../session/profile-session.js';
import { matchSchema } from '../session/schema-match.js';
import { inactiveError } from '../session/session-errors.js';
import { decideJournal, deleteJournal, forgetParticipant } from './journal.js';

type Pair = readonly [ProfileSession, ProfileSession];

/**
 * Runs a trade between two active sessions of one driver, reporting `trade.committed` or
 * `trade.aborted`. `apply` changes copies of both datas; they replace the profiles' data only
 * once the journal says committed. Rejects with `Data.TradeFailed` when it aborts. When the
 * driver closed while the commit was being written (one whose response was lost may have
 * landed), it reports `trade.undecided` and rejects with `Data.Closed`: never `trade.aborted`,
 * which a game may answer with a refund. Closed while an abort was being written, it rejects
 * with `Data.Closed` too, but reports `trade.aborted`: nothing can commit it any more.
 */
export async function trade(
  context: DriverContext,
  sessions: Pair,
  apply: (a: JsonObject, b: JsonObject) => void,
  /** True once the driver has closed: an undecided trade stops retrying its decision. */
  closed: () => boolean,
): Promise<void> {
  if (sessions[0] === sessions[1]) {
    throw new DataDriverError(ErrorCode.InvalidArgument, 'a trade needs two different profiles');
  }
  for (const session of sessions) {
    if (!session.active) {
      throw inactiveError(session.key);
    }
    if (session.trade)
      throw new DataDriverError(ErrorCode.TradeFailed, `${session.key} is already in a trade`);
  }
  const id = context.createId();
  const event = { key: sessions[0].key, trade: id, keys: sessions.map((s) => s.key) };
  try {
    await runTrade(context, id, sessions, apply, closed);
    context.emit({ type: 'trade.committed', ...event });
  } catch (error) {
    // Only a commit's write can have landed unseen: a close while writing an abort is aborted.
    const undecided =
      DataDriverError.is(error, ErrorCode.Closed) && error.details.decision === 'committed';
    context.emit({ type: undecided ? 'trade.undecided' : 'trade.aborted', ...event });
    throw toDataDriverError(error, ErrorCode.TradeFailed, `trade ${id} failed`);
  }
}

async function runTrade(
  context: DriverContext,
  id: string,
  sessions: Pair,
  apply: (a: JsonObject, b: JsonObject) => void,
  closed: () => boolean,
): Promise<void> {
  // Checked before the copy: a copy through JSON would silently turn a Date into a string.
  const copies = sessions.map(({ key, data }) => JSON.parse(serializeData(key, data))) as [
    JsonObject,
    JsonObject,
  ];
  try {
    apply(copies[0], copies[1]);
  } catch (error) {
    throw new DataDriverError(ErrorCode.TradeFailed, 'the trade function threw; nothing changed', {
      cause: error,
    });
  }
  const checked = sessions.map((session, index) =>
    matchSchema(context, session.key, serializeData(session.key, copies[index])),
  );
  const journal = journalOf(context, id, sessions, copies);
  let decide: () => void = () => undefined;
  const decided = new Promise<void>((resolve) => {
    decide = resolve;
  });
  // Held in the tick `trade` checked them in, before any await: a second trade of either
  // profile fails, and a save, release or erase waits for the decision.
  for (const session of sessions) session.joinTrade({ id, decided });
  try {
    // Before the journal: data the schema refuses is never committed, and nothing changes.
    // Only an asynchronous schema waits: otherwise the first writes start in this same tick.
    if (checked.some((check) => check !== undefined)) await Promise.all(checked);
  } catch (error) {
    for (const session of sessions) session.joinTrade(undefined);
    decide();
    throw error;
  }
  let undecided = false;
  try {
    const outcome = await prepareAndDecide(context, id, sessions, journal, closed);
    if (outcome !== 'committed') {
      throw new DataDriverError(
        ErrorCode.TradeFailed,
        `trade ${id} was aborted by a recovering server`,
      );
    }
    replaceContents(sessions[0].data, copies[0]);
    replaceContents(sessions[1].data, copies[1]);
  } catch (error) {
    // The driver closed with the outcome unknown: a write now could clear a marker over data
    // the journal may have committed. The markers stay; each participant's next load settles.
    undecided = DataDriverError.is(error, ErrorCode.Closed);
    throw error;
  } finally {
    if (!undecided) release(context, id, sessions, decide);
  }
}

/** The trade is decided: its participants go on, and are saved with their markers cleared. */
function release(context: DriverContext, id: string, sessions: Pair, decide: () => void): void {
  for (const session of sessions) session.joinTrade(undefined);
  decide();
  settle(context, id, sessions);
}

/**
 * Saves each participant, which clears its marker (a failure is retried by autosave; a
 * leaving participant's release clears it too). Once both markers are gone the journal is
 * deleted: nothing can need it, and it holds player data.
 */
function settle(context: DriverContext, id: string, sessions: Pair): void {
  const cleared = sessions.map((session) => {
    const next = session.nextWrite();
    // A failed save is reported as profile.save-failed; the next write that lands counts.
    if (session.state === 'active') session.save('trade').catch(() => undefined);
    return next;
  });
  const cleanUp = Promise.allSettled(cleared).then((outcomes) => {
    if (outcomes.every((outcome) => outcome.status === 'fulfilled'))
      return deleteJournal(context, id);
    // A lock was taken: its new holder's load settles that marker. The journal keeps only what
    // that load needs, and goes once no participant is marked (whichever side is last).
    return Promise.all(
      sessions
        .filter((_, index) => outcomes[index]?.status === 'fulfilled')
        .map((session) => forgetParticipant(context, id, session.key)),
    ).catch((error) => {
      context.logger.warn(`could not clear the journal of trade ${id}: ${describeError(error)}`);
    });
  });
  context.background.track(cleanUp);
}

/**
 * The prepared journal, checked against the store's limit before any write: it holds both
 * datas, so it can be over the limit when neither record is.
 */
function journalOf(
  context: DriverContext,
  id: string,
  sessions: Pair,
  copies: readonly [JsonObject, JsonObject],
): JsonObject {
  // Built as own properties: a participant whose key is `__proto__` keeps its entry.
  const entries: Record<string, JsonObject> = Object.fromEntries(
    sessions.map((session, index) => [session.key, copies[index]!]),
  );
  const journal = preparedJournal(id, entries, context.scheduler.now());
  return checkRecordSize(
    context.keys.journal(id),
    journal as unknown as JsonObject,
    context.store.maxRecordBytes,
  );
}

async function prepareAndDecide(
  context: DriverContext,
  id: string,
  sessions: Pair,
  journal: JsonObject,
  closed: () => boolean,
): Promise<TradeState> {
  try {
    await context.store.update(context.keys.journal(id), () => journal);
    for (const session of sessions)
      await session.markTrade({ id, journal: context.keys.journal(id) });
  } catch (error) {
    // Not decided yet: abort, so a marker that did land is settled as nothing happened.
    await decideJournal(context, id, 'aborted', closed);
    throw new DataDriverError(
      ErrorCode.TradeFailed,
      `trade ${id} could not be prepared: ${describeError(error)}`,
      { cause: error },
    );
  }
  return decideJournal(context, id, 'committed', closed);
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
