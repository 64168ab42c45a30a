/**
 * Checks run on every committed write to a profile record, as it lands: who may write
 * (one-lock-holder), who may take a lock from whom (live-holder-kept, presence-protection,
 * presence-flag, own-server-lock), and what a write may store (no-rollback, ledger). They
 * judge the store's facts and the presence history, not the drivers' own reports.
 */
import { isDeepStrictEqual } from 'node:util';
import type { LockInfo, ProfileRecord } from '@datadriver/core/rules';
import { Invariant, type ViolationSink } from './invariants.js';
import { ledgerError, progressOf, tradesOf } from './player-data.js';
import { PRESENCE_BEAT_MS, type StoreCommit } from './recording-backend.js';
import type { Tracker } from './tracker.js';
import { settledRecordData } from './trade-view.js';
import { waitBoundMs } from './wait-bound.js';
import type { SimServer, World } from './world.js';

export interface CheckContext {
  readonly world: World;
  readonly tracker: Tracker;
  readonly sink: ViolationSink;
}

interface Write {
  readonly key: string;
  readonly at: number;
  readonly writer: SimServer;
  readonly before: ProfileRecord | undefined;
  readonly after: ProfileRecord;
}

export function checkCommit(commit: StoreCommit, context: CheckContext): void {
  const { world, tracker } = context;
  const key = world.playerKeyOf(commit.key);
  const writer = world.writerOf(commit);
  if (writer === undefined) return;
  if (key === undefined) {
    checkJournalDecision(commit, writer, context);
    return;
  }
  const write: Write = {
    key,
    at: commit.at,
    writer,
    before: commit.before as unknown as ProfileRecord | undefined,
    after: commit.after as unknown as ProfileRecord,
  };
  checkWriter(write, context);
  checkLockTime(write, context);
  checkTakeover(write, context);
  checkData(write, context);
  const lock = write.after.meta.lock;
  if (lock && !tracker.tokenSeen(key, lock.token))
    tracker.sessionTook(writer.label, key, lock.token);
  const token = lock?.token ?? write.after.meta.releasedToken;
  tracker.committed(key, token, {
    jobId: commit.jobId,
    progress: progressOf(write.after.data),
    at: commit.at,
  });
}

/** lock-time: a lock carries its writer's clock at the moment the write landed. */
function checkLockTime(write: Write, { sink }: CheckContext): void {
  const lock = write.after.meta.lock;
  if (!lock) return;
  const clock = write.at + write.writer.plan.skewMs;
  if (lock.time === clock) return;
  sink.report({
    invariant: Invariant.LockTime,
    key: write.key,
    server: write.writer.label,
    message: `${write.writer.label} wrote the lock of ${write.key} with time ${lock.time}, ${lock.time - clock} ms off its clock (${clock}) as the write landed`,
  });
}

export function describeLock(world: World, lock: LockInfo | undefined): string {
  if (!lock) return 'unlocked';
  return `held by ${world.nameOf(lock.jobId)} under ${lock.token}${lock.presence ? ' (presence)' : ''}`;
}

/** one-lock-holder and presence-flag: the holder writes, a fresh load takes, a release clears its own. */
function checkWriter(write: Write, { world, tracker, sink }: CheckContext): void {
  const { key, writer, before, after } = write;
  const previous = before?.meta.lock;
  const lock = after.meta.lock;
  const report = (
    invariant: typeof Invariant.OneLockHolder | typeof Invariant.PresenceFlag,
    message: string,
  ) => sink.report({ invariant, key, server: writer.label, message });
  if (!lock) {
    const released = after.meta.releasedToken;
    if (previous?.token === released) return;
    if (!previous && before?.meta.releasedToken === released) return; // its own release, again
    report(
      Invariant.OneLockHolder,
      `${writer.label} released ${key} under ${released}, but the lock was ${describeLock(world, previous)}`,
    );
    return;
  }
  if (lock.jobId !== writer.jobId) {
    report(
      Invariant.OneLockHolder,
      `${writer.label} wrote a lock naming ${world.nameOf(lock.jobId)}`,
    );
  }
  if (lock.presence !== writer.plan.handoff) {
    report(
      Invariant.PresenceFlag,
      `${writer.label} (handoff ${writer.plan.handoff ? 'on' : 'off'}) wrote a lock with presence ${lock.presence}`,
    );
  }
  if (previous?.token === lock.token) return; // the holder's own write
  if (!tracker.tokenSeen(key, lock.token)) return; // a load taking it: see checkTakeover
  if (!previous && before?.meta.releasedToken === lock.token) return; // adoption's retake
  if (!previous && isLoadRetake(write, world)) return;
  report(
    Invariant.OneLockHolder,
    `${writer.label} committed ${key} under ${lock.token}, a session that no longer holds the lock (it was ${describeLock(world, previous)})`,
  );
}

/**
 * A load's attempt whose write landed but whose response was lost runs its transform again
 * (the store's update retries it). If another server took that lock meanwhile and released it,
 * the rerun finds the record free and takes it again under the same token: a fresh take of a
 * free record, lawful whether the load is still waiting (it resolves with that record) or has
 * timed out (core releases a lock it takes late, `late-lock.ts`). It is told from a session's
 * write by two facts: no driver on the writer's server holds a profile under that token, and
 * the data is the record's own, unchanged (a save would carry the session's data).
 */
function isLoadRetake(write: Write, world: World): boolean {
  const { key, writer, before, after } = write;
  const token = after.meta.lock?.token;
  if (!before || token === undefined || after.meta.lock?.jobId !== writer.jobId) return false;
  const session = world
    .playerDriversOn(writer.jobId)
    .some((driver) => driver.profile(key)?.lockToken === token);
  return !session && isDeepStrictEqual(before.data, after.data);
}

/** Whether the lock of `write.before` could change hands to the load that wrote `write.after`. */
function checkTakeover(write: Write, context: CheckContext): void {
  const { world, tracker, sink } = context;
  const { key, writer, at } = write;
  const holder = write.before?.meta.lock;
  const lock = write.after.meta.lock;
  if (!holder || !lock || holder.token === lock.token || tracker.tokenSeen(key, lock.token)) return;
  const report = (
    invariant:
      | typeof Invariant.LiveHolderKept
      | typeof Invariant.PresenceProtection
      | typeof Invariant.PresenceFlag
      | typeof Invariant.OwnServerLock,
    message: string,
  ) => sink.report({ invariant, key, server: writer.label, message });
  const from = describeLock(world, holder);
  if (holder.jobId === writer.jobId) {
    // Any driver of the player data on this server: the writer, or another copy beside it.
    const active = world
      .playerDriversOn(writer.jobId)
      .find((driver) => driver.profile(key)?.lockToken === holder.token);
    if (active) {
      const whose = active === writer ? 'its' : `${active.label}'s`;
      report(
        Invariant.OwnServerLock,
        `${writer.label} took its own server's lock ${from} from ${whose} active profile`,
      );
    }
    return;
  }
  const longest = waitBoundMs(world, writer, { startedAt: at, waitedHere: true }, at);
  // A load that gave up on a store attempt (Data.Timeout) may see it land later: that write
  // is judged by the reads of the load that sent it. While a newer load of the key is in
  // flight there too, the write may be either one's, so the reads of both count (core keeps a
  // holder's presence reads per server, across its loads).
  const current = tracker.oldestLoad(writer.label, key);
  const timedOut = tracker.oldestTimedOutLoad(writer.label, key);
  const loadStart =
    current === undefined
      ? (tracker.takeTimedOutLoad(writer.label, key) ?? at - longest)
      : Math.min(current, timedOut ?? current);
  const age = independentAge(key, at, writer, holder, context);
  const stale = age > world.staleAfterMs;
  const ageText = `its holder's last write landed ${age} ms before on ${writer.label}'s clock, stale after ${world.staleAfterMs} ms`;
  if (!holder.presence || !writer.plan.handoff) {
    // No presence on either side: only age frees the lock.
    if (stale) return;
    const invariant = holder.presence ? Invariant.LiveHolderKept : Invariant.PresenceFlag;
    report(invariant, `${writer.label} took the lock ${from} before it was stale (${ageText})`);
    return;
  }
  // A flagged lock, taken by a server with handoff on: every lawful way there goes through a
  // read of the holder's presence in this load (two "stopped" a beat apart for a steal; for
  // a stale lock, an answer that does not protect it).
  const read = tracker.lastRead(writer.label, key, holder.jobId);
  if (read === undefined || read.at < loadStart) {
    report(
      Invariant.PresenceProtection,
      `${writer.label} took the lock ${from} without reading its holder's presence (${ageText})`,
    );
  } else if (read.answer === 'alive') {
    report(
      Invariant.PresenceProtection,
      `${writer.label} took the lock ${from} after its holder's presence read alive (${ageText})`,
    );
  } else if (!stale) {
    // Not stale: only a holder that stopped beating loses it, and the presence history saw
    // its key missing at two instants of the load a beat apart (two empty reads need that).
    const absent = world.backend.presenceHistory.absentSpan(holder.jobId, loadStart, at);
    if (read.answer === 'stopped' && absent >= PRESENCE_BEAT_MS) return;
    const why =
      absent < 0
        ? 'beat presence all through the load'
        : read.answer === 'stopped'
          ? `had its presence key missing for only ${absent} ms of the load, less than a beat (${PRESENCE_BEAT_MS} ms)`
          : `last read ${read.answer}`;
    report(
      Invariant.LiveHolderKept,
      `${writer.label} took the lock ${from} before it was stale (${ageText}); its holder ${why}`,
    );
  }
}

/**
 * How old the holder's lock is on the taker's clock, from the store's record: when the
 * holder's last write under that token landed, shifted by the two servers' clock offsets.
 * Never the time the lock carries (lock-time checks that one).
 */
function independentAge(
  key: string,
  at: number,
  taker: SimServer,
  holder: LockInfo,
  { world, tracker }: CheckContext,
): number {
  const last = tracker.lastCommit(key, holder.token);
  const holderServer = world.serverByJobId(holder.jobId);
  if (last === undefined || holderServer === undefined) {
    throw new Error(`no committed write of ${key} under ${holder.token} was recorded`);
  }
  return at - last.at + (taker.plan.skewMs - holderServer.plan.skewMs);
}

/**
 * recovery-by-taker: a trade journal decided by a server other than the trade's own is a
 * recovering load settling a participant's marker, which it may do only once it may take that
 * participant's lock. One participant record it is loading (or, when it loads none, one
 * marked with the journal) must then be unlocked, locked by the deciding server itself, stale
 * by its holder's last write, or flagged with its holder's presence key missing a beat apart
 * during the load, or for a beat or more without a break when the journal is decided.
 */
function checkJournalDecision(commit: StoreCommit, writer: SimServer, context: CheckContext) {
  const { world, tracker, sink } = context;
  if (world.tradeIdOf(commit.key) === undefined) return;
  if (commit.before === undefined) {
    tracker.journalCreated(commit.key, commit.jobId);
    return;
  }
  const decided = commit.before.state === 'prepared' && commit.after.state !== 'prepared';
  if (!decided || tracker.journalCreator(commit.key) === commit.jobId) return;
  const { at } = commit;
  const marked = world.players.filter(
    (player) => world.record(player.id)?.meta.trade?.journal === commit.key,
  );
  // The deciding load is one of the participants' loads there: a holder's key missing a beat
  // apart during it proves that server stopped for every participant it holds (seed 4230: the
  // load of one participant decided while the other's load had just begun).
  const longest = waitBoundMs(world, writer, { startedAt: at, waitedHere: true }, at);
  const starts = marked
    .map((player) => tracker.oldestLoad(writer.label, player.id))
    .filter((start): start is number => start !== undefined);
  const loadStart = starts.length > 0 ? Math.min(...starts) : at - longest;
  const takeable = (player: (typeof marked)[number]): boolean => {
    const holder = world.record(player.id)?.meta.lock;
    if (!holder || holder.jobId === writer.jobId) return true;
    if (independentAge(player.id, at, writer, holder, context) > world.staleAfterMs) return true;
    const history = world.backend.presenceHistory;
    const absent = Math.max(
      history.absentSpan(holder.jobId, loadStart, at),
      // A holder gone a beat or more before the decision has stopped, whoever watched it go
      // (seed 4678: C crashed mid-trade, its stalled marker write on p0 landed 68 s later and
      // made the lock look fresh; its key had been missing 80 s when B's load of p4 decided).
      history.absentFor(holder.jobId, at),
    );
    return holder.presence && writer.plan.handoff && absent >= PRESENCE_BEAT_MS;
  };
  // The decider settles the marker of the participant it is loading, by that participant's
  // lock rule; another participant's marker is settled by whoever loads it next, from the same
  // journal. So the participants this server is loading are judged, and it is enough that one
  // of them could change hands (seeds 79758 and 97696: a crashed or stalled runner's late
  // marker write kept one participant's lock fresh while the one being loaded was stale).
  const loading = marked.filter(
    (player) => tracker.oldestLoad(writer.label, player.id) !== undefined,
  );
  const judged = loading.length > 0 ? loading : marked;
  if (judged.length === 0 || judged.some(takeable)) return;
  for (const player of judged) {
    sink.report({
      invariant: Invariant.RecoveryByTaker,
      key: player.id,
      server: writer.label,
      message: `${writer.label} decided trade journal ${commit.key} (${String(commit.after.state)}) while ${player.id}'s lock, ${describeLock(world, world.record(player.id)?.meta.lock)}, could not change hands to it`,
    });
  }
}

/**
 * no-rollback and ledger: what a write stores. Judged on the settled view (what the next
 * load would make of the record, trade markers settled from their journals), so that a
 * write which keeps the stored data but drops a committed trade's marker counts as the
 * rollback it would turn into after a crash.
 */
function checkData(write: Write, { world, sink }: CheckContext): void {
  const { key, writer, before, after } = write;
  const was = settledRecordData(world, key, before);
  const now = settledRecordData(world, key, after);
  const report = (message: string) =>
    sink.report({ invariant: Invariant.NoRollback, key, server: writer.label, message });
  if (progressOf(now) < progressOf(was)) {
    report(`${writer.label} wrote ${key} with progress ${progressOf(now)} over ${progressOf(was)}`);
  }
  const kept = new Set(tradesOf(now));
  const dropped = tradesOf(was).filter((id) => !kept.has(id));
  if (dropped.length > 0) {
    const how = after.meta.trade ? ` (its marker is now ${after.meta.trade.id})` : '';
    report(`${writer.label} wrote ${key} without trade ${dropped.join(', ')}, which it held${how}`);
  }
  const broken = ledgerError(
    key,
    after.data,
    (id) => world.trades.get(id),
    (id) => world.messages.get(id),
  );
  if (broken) {
    sink.report({ invariant: Invariant.Ledger, key, server: writer.label, message: broken });
  }
}
