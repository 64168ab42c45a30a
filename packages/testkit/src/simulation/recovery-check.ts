import { Invariant } from './invariants.js';
import { type CheckContext, describeLock, independentAge } from './lock-facts.js';
import { PRESENCE_BEAT_MS, type StoreCommit } from './recording-backend.js';
import { waitBoundMs } from './wait-bound.js';
import type { SimServer } from './world.js';

/**
 * recovery-by-taker: a trade journal decided by a server other than the trade's own is a
 * recovering load settling a participant's marker, which it may do only once it may take that
 * participant's lock. One participant record it is loading (or, when it loads none, one
 * marked with the journal) must then be unlocked, locked by the deciding server itself, stale
 * by its holder's last write, or flagged with its holder's presence key missing a beat apart
 * during the load, or for a beat or more without a break when the journal is decided.
 */
export function checkJournalDecision(
  commit: StoreCommit,
  writer: SimServer,
  context: CheckContext,
) {
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
