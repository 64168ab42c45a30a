/**
 * Which of the driver's paths a run reached, so that an exploration shows what its invariants
 * were actually exercised on: a check of a path never reached proves nothing. Each flow is
 * recognised from the store's commits, the drivers' events and the faults, and counted as
 * `flow.<name>`; a run that reached it also counts `reached.<name>` once, so a batch reports
 * how many of its runs reached each.
 */
import type { DataDriverEvent } from '@datadriver/core';
import type { ProfileRecord } from '@datadriver/core/rules';
import type { StoreCommit } from './recording-backend.js';
import type { Tracker } from './tracker.js';
import type { SimServer, World } from './world.js';

export const FLOWS = {
  'take-new': 'a load creates a record',
  'take-unlocked': 'a load takes a released record',
  'take-stale-flagged': "a load takes a flagged lock by age (its holder's presence not alive)",
  'take-stale-unflagged': 'a load takes a lock without the presence flag by age (handoff off)',
  'take-stolen': 'a load takes a lock after two empty presence reads a beat apart',
  'take-orphaned': "a load takes its own server's orphaned lock (a lost response)",
  'take-handed': "a load takes the lock its holder's release wrote for it (handOverLocks)",
  'hand-over-orphaned': 'a lock was handed to a load that had already ended',
  'handoff-reply': 'a holder released on request and the waiting load took the lock',
  'reply-record':
    "a holder's signed reply carried the record its release handed to the load waiting for it",
  'save-lock-lost': 'a save or release found its lock taken (Data.LockLost)',
  'release-retained': 'a leave save failed and the profile was retained',
  'adopt-kept': 'a rejoin adopted a retained profile and saved it',
  'adopt-lost': 'a rejoin found its retained profile’s lock gone',
  'adopt-unsaved': 'a rejoin adopted a retained profile it could not save yet',
  'newest-connection': 'a second connection of a player on one server ended the first',
  'trade-committed': 'a trade committed',
  'trade-aborted': 'a trade aborted',
  'trade-undecided': 'a trade closed while its commit was being written',
  'recovered-committed': 'a load settled a committed trade from its journal',
  'recovered-aborted': 'a load aborted an undecided trade it found marked',
  'load-met-live-marker': "a load found a live holder's lock with a trade marker on it",
  'recovery-raced-live-trade': 'a load took a marked record from a server still running that trade',
  'presence-key-lost': "a live server's presence key was lost and it beat on",
  'presence-unknown': 'a presence read failed (the unknown answer)',
  'late-request': 'a request naming an older token reached a newer session',
  'older-copy-refused': 'an older copy found the key held by the driver beside it: locked at once',
  'unflagged-after-proof':
    "a load that read a server as stopped met that server's lock without the presence flag",
  'skewed-clocks': "a run whose servers' clocks differ (within lockSkew)",
  'mixed-handoff': 'a run with servers of handoff on and off',
  'mixed-hand-over': 'a run with servers that hand locks over and servers that do not',
  'several-drivers': 'a run with a second driver on a server (older copy, other name or backend)',
  'message-queued': "a sender's send resolved queued",
  'message-duplicate': "a sender's resend resolved duplicate",
  'send-response-lost': 'a send failed, but its message was in the inbox (a lost response)',
  'applied-at-load': 'a load applied messages that waited for it (pending through a hand-over)',
  'applied-live': 'a holder applied messages (on a nudge or at an autosave)',
  'transfer-across-servers': 'a transfer applied by another server than the one that debited it',
  'delivered-by-next-holder': "a transfer delivered by another server than its debit's",
  'crash-after-apply':
    'a holder crashed right after the write that applied messages (before the trim)',
  'crash-after-debit':
    'a holder crashed right after the write that debited a transfer (before its delivery)',
} as const;

export type FlowName = keyof typeof FLOWS;

/** Counts the flows an event shows. */
export function flowsOfEvent(
  world: World,
  tracker: Tracker,
  server: SimServer,
  event: DataDriverEvent,
  count: (flow: FlowName) => void,
): void {
  switch (event.type) {
    case 'lock.taken':
      if (event.reason === 'stale') {
        count(event.from.presence ? 'take-stale-flagged' : 'take-stale-unflagged');
      } else count(`take-${event.reason}` as FlowName);
      return;
    case 'load.loaded':
      if (event.reason === 'new' || event.reason === 'unlocked' || event.reason === 'handed') {
        count(`take-${event.reason}`);
      }
      return;
    case 'load.waiting': {
      if (event.reason !== 'locked') return;
      if (world.record(event.key)?.meta.trade) count('load-met-live-marker');
      const holder = event.holder;
      if (!holder || holder.presence) return;
      const read = tracker.lastRead(server.label, event.key, holder.jobId);
      const since = tracker.oldestLoad(server.label, event.key);
      if (read?.answer === 'stopped' && since !== undefined && read.at >= since) {
        count('unflagged-after-proof');
      }
      return;
    }
    case 'load.failed': {
      const holder = (event.error.details as { holder?: { jobId?: string } } | undefined)?.holder;
      if (server.side?.kind === 'older-copy' && holder?.jobId === server.jobId) {
        count('older-copy-refused');
      }
      return;
    }
    case 'handoff.reply.received':
      count('handoff-reply');
      if (event.record) count('reply-record');
      return;
    case 'presence.read':
      if (event.answer === 'unknown') count('presence-unknown');
      return;
    case 'lock.lost':
      count('save-lock-lost');
      return;
    case 'profile.release-failed':
      count('release-retained');
      return;
    case 'profile.adopted':
      count(`adopt-${event.outcome}`);
      return;
    case 'profile.kicked':
      if (event.cause === 'rejoined') count('newest-connection');
      return;
    case 'trade.committed':
    case 'trade.aborted':
    case 'trade.undecided':
      count(event.type.replace('.', '-') as FlowName);
      return;
    case 'trade.recovered':
      count(`recovered-${event.outcome}`);
      return;
    case 'profile.released': {
      // Released as the write landed, before any reply: a load still waiting there is pending.
      const to = event.handedTo === undefined ? undefined : world.serverByJobId(event.handedTo);
      if (to && tracker.oldestLoad(to.label, event.key) === undefined) count('hand-over-orphaned');
      return;
    }
    case 'handoff.request.received': {
      const held = server.profile(event.key)?.lockToken;
      if (event.token !== undefined && held !== undefined && held !== event.token) {
        count('late-request');
      }
      return;
    }
    default:
      return;
  }
}

/** Counts the flows a commit shows: a load taking a marked record from a live trading server. */
export function flowsOfCommit(
  world: World,
  commit: StoreCommit,
  count: (flow: FlowName) => void,
): void {
  if (world.playerKeyOf(commit.key) === undefined) return; // a trade journal
  const before = commit.before as unknown as ProfileRecord | undefined;
  const after = commit.after as unknown as ProfileRecord;
  const holder = before?.meta.lock;
  if (!before?.meta.trade || !holder || !after.meta.lock) return;
  if (after.meta.lock.token === holder.token) return;
  const trading = world.serverByJobId(holder.jobId);
  const pending = [...world.trades.values()].some(
    (trade) => trade.server === trading && trade.outcome === 'pending',
  );
  if (trading?.live && pending) count('recovery-raced-live-trade');
}

/** The flows a run's configuration shows. */
export function flowsOfConfig(world: World, count: (flow: FlowName) => void): void {
  const skews = new Set(world.config.servers.map((server) => server.skewMs));
  if (skews.size > 1) count('skewed-clocks');
  const handoff = new Set(world.config.servers.map((server) => server.handoff));
  if (handoff.size > 1) count('mixed-handoff');
  const handOvers = new Set(world.config.servers.map((server) => server.handOverLocks));
  if (handOvers.size > 1) count('mixed-hand-over');
  if (world.config.drivers.length > 0) count('several-drivers');
}

/** A batch's table: each flow, the runs that reached it and how often it ran. */
export function flowTable(counts: ReadonlyMap<string, number>, runs: number): string {
  const rows = Object.entries(FLOWS).map(([name, what]) => {
    const reached = counts.get(`reached.${name}`) ?? 0;
    const times = counts.get(`flow.${name}`) ?? 0;
    const mark = reached === 0 ? 'NEVER REACHED' : `${reached} of ${runs} runs, ${times} times`;
    return `  ${name.padEnd(27)} ${mark.padEnd(30)} ${what}`;
  });
  return ['flows reached:', ...rows].join('\n');
}

/** The flows no run of a batch reached. */
export function flowsNeverReached(counts: ReadonlyMap<string, number>): string[] {
  return Object.keys(FLOWS).filter((name) => !counts.get(`reached.${name}`));
}
