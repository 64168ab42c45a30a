/**
 * What the commit checks share: their context, and the facts about a lock they judge by (who
 * holds it, and how old it is by the store's own record of commits, never by the time the lock
 * carries).
 */
import type { LockInfo } from '@datadriver/core/rules';
import type { ViolationSink } from './invariants.js';
import type { Tracker } from './tracker.js';
import type { SimServer, World } from './world.js';

export interface CheckContext {
  readonly world: World;
  readonly tracker: Tracker;
  readonly sink: ViolationSink;
}

export function describeLock(world: World, lock: LockInfo | undefined): string {
  if (!lock) return 'unlocked';
  return `held by ${world.nameOf(lock.jobId)} under ${lock.token}${lock.presence ? ' (presence)' : ''}`;
}

/**
 * How old the holder's lock is on the taker's clock, from the store's record: when the
 * holder's last write under that token landed, shifted by the two servers' clock offsets.
 * Never the time the lock carries (lock-time checks that one).
 */
export function independentAge(
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
