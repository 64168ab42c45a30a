/** The trace's words for driver events and store commits. */
import type { DataDriverEvent } from '@datadriver/core';
import type { ProfileRecord } from '@datadriver/core/rules';
import { progressOf, tradesOf } from './player-data.js';
import type { StoreCommit } from './recording-backend.js';
import type { World } from './world.js';

/** One line for a driver event, or `undefined` for events the trace leaves out. */
export function eventLine(world: World, event: DataDriverEvent): string | undefined {
  const name = (jobId: string) => world.nameOf(jobId);
  switch (event.type) {
    case 'load.started':
      return 'load started';
    case 'load.waiting':
      return `waits (${event.reason}${event.holder ? ` on ${name(event.holder.jobId)} ${event.holder.token}` : ''})`;
    case 'load.loaded':
      return `loaded (${event.reason}) after ${event.waitedMs} ms`;
    case 'load.failed':
      return `load failed after ${event.waitedMs} ms: ${event.error.message}`;
    case 'lock.taken':
      return `took the lock ${event.from.token} of ${name(event.from.jobId)} (${event.reason})`;
    case 'lock.lost':
      return `lost the lock${event.holder ? ` to ${name(event.holder.jobId)} ${event.holder.token}` : ''}`;
    case 'presence.read':
      return `read presence of ${name(event.holder)}: ${event.answer}`;
    case 'handoff.request.sent':
      return `asks ${name(event.holder)} to release ${event.token ?? '(no token)'}`;
    case 'handoff.request.received':
      return `request from ${name(event.requester)} for ${event.token ?? '(no token)'}: ${event.action}`;
    case 'handoff.reply.sent':
      return `replies to ${name(event.requester)}`;
    case 'handoff.reply.received':
      return event.record ? 'reply received, with the record handed here' : 'reply received';
    case 'profile.kicked':
      return `kicked ${event.player}: "${event.message}"`;
    case 'profile.saved':
      return `saved (${event.reason})`;
    case 'profile.save-failed':
      return `save failed (${event.reason}): ${event.error.message}`;
    case 'profile.released':
      return 'released';
    case 'profile.release-failed':
      return `release failed: ${event.error.message}`;
    case 'profile.adopted':
      return `adopted the retained profile: ${event.outcome}`;
    case 'trade.committed':
    case 'trade.aborted':
    case 'trade.undecided':
      return `${event.type} ${event.trade} [${event.keys.join(', ')}]`;
    case 'trade.recovered':
      return `recovered trade ${event.trade}: ${event.outcome}`;
    case 'presence.beat-failed':
      return event.first ? `presence beat failed: ${event.error.message}` : undefined;
    case 'handoff.subscribe-failed':
      return 'subscribe failed; polling';
    case 'handoff.subscribed':
      return 'subscribed';
    case 'driver.close-timeout':
      return `close timed out with ${event.keys.join(', ')} unreleased`;
    default:
      return undefined;
  }
}

/** One line for a committed write: the lock it leaves and the data's progress. */
export function commitLine(commit: StoreCommit): string {
  const after = commit.after as unknown as ProfileRecord;
  const lock = after.meta.lock;
  const state = lock
    ? `lock ${lock.token}${lock.presence ? '' : ' (no presence flag)'}`
    : `released ${after.meta.releasedToken ?? ''}`;
  const marker = after.meta.trade ? `, marker ${after.meta.trade.id}` : '';
  const trades = tradesOf(after.data);
  const coins = (after.data as { coins?: unknown }).coins;
  return `store v${after.meta.version}: ${state}${marker}, progress ${progressOf(after.data)}, coins ${String(coins)}${trades.length ? `, trades ${trades.join(' ')}` : ''}`;
}

/** One line for a trade journal write. */
export function journalLine(world: World, commit: StoreCommit): string {
  const state = (commit.after as { state?: unknown }).state;
  return `journal ${world.tradeIdOf(commit.key) ?? commit.key}: ${String(state)}`;
}
