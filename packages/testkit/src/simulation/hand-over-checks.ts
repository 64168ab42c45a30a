/**
 * The checks of a write that hands its lock over (`handOverLocks`): which writes do, and whether
 * one may. Judged on the store's facts and the servers' plans, never on the drivers' reports.
 */
import type { ProfileRecord } from '@datadriver/core/rules';
import { Invariant } from './invariants.js';
import type { CheckContext } from './lock-facts.js';
import type { SimServer } from './world.js';

/** A committed write of a player's record, as the commit checks see it. */
export interface HandingWrite {
  readonly key: string;
  readonly writer: SimServer;
  readonly before: ProfileRecord | undefined;
  readonly after: ProfileRecord;
}

/**
 * The server a write hands its lock to (`handOverLocks`), told by the store's facts alone: the
 * writer releases its own lock in this very write (the lock before is the writer's, under the
 * token the record now names released) and writes a new lock naming another server. Whether
 * that may be is `checkHandOver`'s.
 */
export function handOverTarget(
  write: HandingWrite,
  { world }: CheckContext,
): SimServer | undefined {
  const { writer, before, after } = write;
  const previous = before?.meta.lock;
  const lock = after.meta.lock;
  if (!previous || !lock || lock.jobId === writer.jobId) return undefined;
  if (previous.jobId !== writer.jobId || previous.token !== after.meta.releasedToken) {
    return undefined;
  }
  return world.serverByJobId(lock.jobId);
}

/**
 * one-lock-holder and presence-flag for a hand-over: both servers hand over, the receiver has
 * handoff on and the lock its flag, and the token is new on this key and one the receiver drew
 * (the simulator's tokens name the server that drew them): a lock only for a load there.
 */
export function checkHandOver(write: HandingWrite, to: SimServer, context: CheckContext): void {
  const { world, tracker, sink } = context;
  const { key, writer, after } = write;
  const lock = after.meta.lock;
  if (!lock) return;
  const report = (
    invariant: typeof Invariant.OneLockHolder | typeof Invariant.PresenceFlag,
    message: string,
  ) => sink.report({ invariant, key, server: writer.label, message });
  const name = world.nameOf(lock.jobId);
  if (!writer.plan.handOverLocks || !to.plan.handOverLocks) {
    report(
      Invariant.OneLockHolder,
      `${writer.label} handed the lock of ${key} to ${name}, but they do not both hand over`,
    );
  }
  if (!lock.presence || !to.plan.handoff) {
    report(
      Invariant.PresenceFlag,
      `${writer.label} handed ${key} to ${name} (handoff ${to.plan.handoff ? 'on' : 'off'}) under a lock with presence ${lock.presence}`,
    );
  }
  const prefix = `${world.cluster.namespace}-${to.plan.label}`;
  const drawnThere = lock.token.startsWith(prefix) && /^\d+$/.test(lock.token.slice(prefix.length));
  if (tracker.tokenSeen(key, lock.token) || !drawnThere) {
    report(
      Invariant.OneLockHolder,
      `${writer.label} handed ${key} to ${name} under ${lock.token}, not a new token of a load there`,
    );
  }
}
