/**
 * Checks run on every committed write to a profile record, as it lands: who may write
 * (one-lock-holder), who may take a lock from whom (live-holder-kept, presence-protection,
 * presence-flag, own-server-lock), and what a write may store (no-rollback, ledger). They
 * judge the store's facts and the presence history, not the drivers' own reports.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ProfileRecord } from '@datadriver/core/rules';
import { checkHandOver, handOverTarget } from './hand-over-checks.js';
import { Invariant } from './invariants.js';
import { type CheckContext, describeLock, independentAge } from './lock-facts.js';
import { ledgerError, progressOf, tradesOf } from './player-data.js';
import { PRESENCE_BEAT_MS, type StoreCommit } from './recording-backend.js';
import { checkJournalDecision } from './recovery-check.js';
import { settledRecordData } from './trade-view.js';
import { waitBoundMs } from './wait-bound.js';
import type { SimServer, World } from './world.js';

export type { CheckContext } from './lock-facts.js';

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
  const seen = { jobId: commit.jobId, progress: progressOf(write.after.data), at: commit.at };
  const lock = write.after.meta.lock;
  const handedTo = lock ? handOverTarget(write, context) : undefined;
  if (lock && handedTo) {
    checkHandOver(write, handedTo, context);
    checkLockTime(write, context);
    checkData(write, context);
    // The release's commit, for its acknowledgment; and the first of the receiving session,
    // whose lock's age counts from it.
    tracker.committed(key, write.after.meta.releasedToken, seen);
    tracker.sessionTook(handedTo.label, key, lock.token);
    tracker.committed(key, lock.token, seen);
    return;
  }
  checkWriter(write, context);
  checkLockTime(write, context);
  checkTakeover(write, context);
  checkData(write, context);
  if (lock && !tracker.tokenSeen(key, lock.token))
    tracker.sessionTook(writer.label, key, lock.token);
  const token = lock?.token ?? write.after.meta.releasedToken;
  tracker.committed(key, token, seen);
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
