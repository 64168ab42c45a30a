/**
 * Checks run on every driver event, as it is emitted: acknowledged saves are in the store
 * (no-rollback), loads start at or above them, waits end in time (bounded-wait), a request
 * only ends the session it names (late-request-harmless), and only flagged locks are taken
 * through presence (presence-flag). Also keeps the tracker's bookkeeping current.
 */
import { type DataDriverEvent, DEFAULT_KICK_MESSAGES, ErrorCode } from '@datadriver/core';
import type { CheckContext } from './commit-checks.js';
import { Invariant } from './invariants.js';
import { progressOf } from './player-data.js';
import { PRESENCE_BEAT_MS } from './recording-backend.js';
import type { PendingLoad } from './tracker.js';
import { waitBoundMs } from './wait-bound.js';
import type { SimServer } from './world.js';

type EventOf<T extends DataDriverEvent['type']> = Extract<DataDriverEvent, { type: T }>;

export function checkEvent(server: SimServer, event: DataDriverEvent, context: CheckContext): void {
  const { tracker, world } = context;
  const now = world.now();
  switch (event.type) {
    case 'load.started':
      tracker.loadStarted(server.label, event.key, now);
      return;
    case 'load.waiting':
      if (event.reason !== 'locked') tracker.loadWaitsHere(server.label, event.key);
      return;
    case 'load.loaded':
      onLoaded(server, event, context);
      return;
    case 'load.failed':
      onFailed(server, event, context);
      return;
    case 'lock.taken':
      onTaken(server, event, context);
      return;
    case 'profile.saved':
    case 'profile.released':
      acknowledge(server, event, context);
      return;
    case 'lock.lost':
      tracker.lockLost(server.label, event.key);
      return;
    case 'profile.adopted':
      if (event.outcome === 'unsaved') tracker.adoptedUnsaved(server.label, event.key);
      return;
    case 'presence.read':
      tracker.presenceRead(server.label, event.key, event.holder, event.answer, now);
      return;
    case 'handoff.request.received':
      onRequest(server, event, context);
      return;
    case 'handoff.request.sent':
      if (event.token !== undefined) tracker.requestSent(event.holder, event.key, event.token);
      return;
    case 'profile.kicked':
      tracker.kicked(server.label, event.player, now);
      onKicked(server, event, context);
      return;
    default:
      return;
  }
}

function onLoaded(server: SimServer, event: EventOf<'load.loaded'>, context: CheckContext): void {
  const { tracker, sink } = context;
  const { key } = event;
  const load = tracker.loadEnded(server.label, key, context.world.now() - event.waitedMs);
  checkWait(server, load, event.waitedMs, context);
  // The seed keeps the player on a retained profile whose adoption save failed (NoRollback).
  if (event.reason === 'adopted' && tracker.takeUnsavedAdoption(server.label, key)) return;
  const profile = server.profile(key);
  if (!profile) return;
  // A take stands on a lock the store committed for this server under this very token: a take
  // that writes nothing (a handed lock) leaves no commit of its own for the commit checks.
  const committed = tracker.sessionToken(server.label, key);
  if (event.reason !== 'adopted' && committed !== profile.lockToken) {
    sink.report({
      invariant: Invariant.OneLockHolder,
      key,
      server: server.label,
      message: `${server.label} loaded ${key} (${event.reason}) under ${profile.lockToken}, a lock the store never committed for it (last: ${committed ?? 'none'})`,
    });
  }
  checkLandedLock(server, key, profile.lockToken, event.reason, context);
  const progress = progressOf(profile.data);
  const acked = tracker.ackedProgress(key);
  if (progress < acked) {
    sink.report({
      invariant: Invariant.NoRollback,
      key,
      server: server.label,
      message: `${server.label} loaded ${key} at progress ${progress}, below the acknowledged ${acked}`,
    });
  }
}

/**
 * A load never lands on a lock another server took from it more than a beat before: however
 * it learned of its lock (a read, a holder's reply), a take older than a beat is confirmed by
 * a read before the game sees it. Judged on the store's own record and commit times.
 */
function checkLandedLock(
  server: SimServer,
  key: string,
  token: string,
  reason: string,
  context: CheckContext,
): void {
  const { world, tracker, sink } = context;
  const lock = world.record(key)?.meta.lock;
  if (reason === 'adopted' || lock === undefined || lock.token === token) return;
  const takenAt = tracker.firstCommitAt(key, lock.token);
  if (takenAt === undefined || world.now() - takenAt <= PRESENCE_BEAT_MS) return;
  sink.report({
    invariant: Invariant.OneLockHolder,
    key,
    server: server.label,
    message: `${server.label} loaded ${key} (${reason}) under ${token}, ${world.now() - takenAt} ms after ${lock.jobId} took its lock`,
  });
}

function onFailed(server: SimServer, event: EventOf<'load.failed'>, context: CheckContext): void {
  const { tracker, world } = context;
  const { key } = event;
  const now = world.now();
  const load = tracker.loadEnded(server.label, key, now - event.waitedMs);
  checkWait(server, load, event.waitedMs, context);
  if (event.error.code === ErrorCode.Timeout)
    tracker.loadTimedOut(server.label, key, load.startedAt);
  // A cancelled load (the player left) and a closing server kick nobody.
  if (event.error.code === ErrorCode.Closed || !server.live) return;
  if (server.side) return; // a second driver's loads are no player's: nobody to kick
  tracker.failedLoads.push({
    server: server.label,
    key,
    startedAt: load.startedAt,
    at: now,
    message: event.error.message,
  });
}

function checkWait(server: SimServer, load: PendingLoad, waitedMs: number, context: CheckContext) {
  const { world, sink } = context;
  const bound = waitBoundMs(world, server, load, world.now());
  if (waitedMs <= bound) return;
  sink.report({
    invariant: Invariant.BoundedWait,
    key: load.key,
    server: server.label,
    message: `the load of ${load.key} on ${server.label} took ${waitedMs} ms, over its bound of ${bound} ms`,
  });
}

function onTaken(server: SimServer, event: EventOf<'lock.taken'>, { world, sink }: CheckContext) {
  if (event.reason !== 'stolen') return;
  if (event.from.presence && server.plan.handoff) return;
  sink.report({
    invariant: Invariant.PresenceFlag,
    key: event.key,
    server: server.label,
    message: `${server.label} (handoff ${server.plan.handoff ? 'on' : 'off'}) took the lock of ${world.nameOf(event.from.jobId)} through presence, and the lock had presence ${event.from.presence}`,
  });
}

/**
 * An acknowledged save or release: the write it sent is in the store. Each acknowledgment is
 * credited with the session's last commit, and a commit only once: a save told it succeeded
 * while writing nothing (its lock was gone) finds only a commit an earlier one was credited with.
 * A session's writes run one at a time, so its last commit is the acknowledged write's own.
 */
function acknowledge(
  server: SimServer,
  event: EventOf<'profile.saved' | 'profile.released'>,
  { tracker, sink }: CheckContext,
): void {
  const { key } = event;
  const token = tracker.sessionToken(server.label, key);
  const commit = token === undefined ? undefined : tracker.lastCommit(key, token);
  const fresh = commit !== undefined && token !== undefined && tracker.credit(key, token, commit);
  if (commit && fresh && commit.jobId === server.jobId) {
    tracker.acknowledge(key, commit.progress);
    return;
  }
  const what = event.type === 'profile.saved' ? `a save (${event.reason})` : 'a release';
  sink.report({
    invariant: Invariant.NoRollback,
    key,
    server: server.label,
    message: commit
      ? `${server.label} was told ${what} of ${key} succeeded, but its session ${token} committed nothing since its last acknowledged write`
      : `${server.label} was told ${what} of ${key} succeeded, but no write of its session ${token ?? '(none)'} is in the store`,
  });
}

/**
 * A session ended for another server ("You joined another server.", or the support kick of a
 * `restoreAt` or `erase` there) must be one a request named: judged from the requests sent,
 * not from what the holder says it received.
 */
function onKicked(server: SimServer, event: EventOf<'profile.kicked'>, context: CheckContext) {
  if (event.message === DEFAULT_KICK_MESSAGES.lockLost) {
    checkLockLostKick(server, event, context);
    return;
  }
  const forAnotherServer = [DEFAULT_KICK_MESSAGES.joinedElsewhere, DEFAULT_KICK_MESSAGES.support];
  if (!forAnotherServer.includes(event.message)) return;
  const token = server.profile(event.key)?.lockToken;
  if (token === undefined || context.tracker.wasRequested(server.jobId, event.key, token)) return;
  context.sink.report({
    invariant: Invariant.LateRequestHarmless,
    key: event.key,
    server: server.label,
    message: `${server.label} ended its session ${token} of ${event.key} for another server, but no request named ${token}`,
  });
}

/** A lost lock ends a loaded session, never a player still loading here. */
function checkLockLostKick(
  server: SimServer,
  event: EventOf<'profile.kicked'>,
  context: CheckContext,
) {
  if (context.tracker.oldestLoad(server.label, event.key) === undefined) return;
  context.sink.report({
    invariant: Invariant.KickJustified,
    key: event.key,
    server: server.label,
    message: `${server.label} kicked ${event.player} for a lost lock while their load of ${event.key} was in progress there`,
  });
}

const ENDING_ACTIONS = new Set(['kick', 'release', 'retry-release']);

function onRequest(
  server: SimServer,
  event: EventOf<'handoff.request.received'>,
  { tracker, world, sink }: CheckContext,
): void {
  if (event.token === undefined || !ENDING_ACTIONS.has(event.action)) return;
  // The active profile's token, else (a leaving profile) the last session loaded here.
  const held =
    server.profile(event.key)?.lockToken ?? tracker.sessionToken(server.label, event.key);
  if (held === event.token) return;
  sink.report({
    invariant: Invariant.LateRequestHarmless,
    key: event.key,
    server: server.label,
    message: `${server.label} acted on a request from ${world.nameOf(event.requester)} naming ${event.token} (${event.action}) while its session holds ${held ?? 'nothing'}`,
  });
}
