/**
 * The session-lock rules: pure functions from a stored record and this server's view to a
 * decision. No I/O happens here; DataDriver runs these inside `Store.update` transforms and
 * does the waiting, messaging and presence reads around them.
 */
import type { LockInfo, ProfileRecord } from './record.js';

export interface LockTimes {
  /** Lock age after which a lock without presence protection can be taken. */
  readonly lockTtlSeconds: number;
  /** Extra age allowed for clock differences between servers. */
  readonly lockSkewSeconds: number;
}

/** A presence answer for one holder: alive, stopped, or `undefined` when the read failed. */
export interface PresenceAnswer {
  readonly jobId: string;
  readonly alive: boolean | undefined;
}

export interface LoadContext extends LockTimes, OwnLocks {
  /** The token this load will write. */
  readonly token: string;
  readonly now: number;
  /** True when this server beats presence: its locks carry the flag, and it reads others'. */
  readonly handoff: boolean;
  /** A holder proven stopped by two empty presence reads a beat apart. */
  readonly stealFrom?: string | undefined;
  /** The holder's presence, read after a `read-presence` decision. */
  readonly holderPresence?: PresenceAnswer | undefined;
}

export type TakeReason =
  /** There was no record. */
  | 'new'
  /** The record was not locked. */
  | 'unlocked'
  /** The lock is this very load's (an earlier attempt committed but its response was lost). */
  | 'own'
  /** The holder released the lock by writing this load's (a hand-over it asked for). */
  | 'handed'
  /** This server's lock that no local profile holds any more. */
  | 'orphaned'
  /** The holder stopped beating presence (`stealFrom`). */
  | 'stolen'
  /** The lock is older than lockTtlSeconds + lockSkewSeconds and not protected. */
  | 'stale';

export type LoadDecision =
  | { readonly kind: 'take'; readonly reason: TakeReason; readonly from?: LockInfo }
  | { readonly kind: 'locked'; readonly holder: LockInfo; readonly stale: boolean }
  /** Stale by age but flagged: read the holder's presence, then decide again with the answer. */
  | { readonly kind: 'read-presence'; readonly holder: LockInfo };

export function isStale(lock: LockInfo, now: number, times: LockTimes): boolean {
  return now - lock.time > (times.lockTtlSeconds + times.lockSkewSeconds) * 1000;
}

/** What tells this server's own locks apart: its id, and the tokens its profiles hold. */
export interface OwnLocks {
  readonly jobId: string;
  /** True when a profile or load on this server still holds a lock with that token. */
  readonly heldHere: (token: string) => boolean;
}

/**
 * How long a holder honours a load's ask to be handed the lock: two of the load's request
 * repeats, since a load that asked longer ago than that may have given up. A server whose load
 * ended having asked waits out the same window at its close before clearing what it was handed.
 */
export function handOverAskWindowMs(timings: { readonly requestRepeatSeconds: number }): number {
  return 2 * timings.requestRepeatSeconds * 1000;
}

/** True for a lock of this server that no profile here holds any more (a lost response). */
export function isOrphanedHere(lock: LockInfo, own: OwnLocks): boolean {
  return lock.jobId === own.jobId && !own.heldHere(lock.token);
}

/**
 * Whether a holder that is asked for a key it does not hold clears the lock named in the
 * request first: only this server's own lock under that very token, orphaned here (a load
 * whose response was lost wrote it); else the requester would find it and wait it out by age.
 */
export function decideOrphanRelease(
  record: ProfileRecord | undefined,
  token: string,
  own: OwnLocks,
): 'release' | 'keep' {
  const lock = record?.meta.lock;
  // A trade's marker is settled by a load (journal recovery), never dropped by this write.
  if (record?.meta.trade !== undefined) return 'keep';
  return lock?.token === token && isOrphanedHere(lock, own) ? 'release' : 'keep';
}

/** Who gets the lock when a load reads `record`. */
export function decideLoad(record: ProfileRecord | undefined, context: LoadContext): LoadDecision {
  if (record === undefined) return { kind: 'take', reason: 'new' };
  const lock = record.meta.lock;
  if (lock === undefined) return { kind: 'take', reason: 'unlocked' };
  if (lock.token === context.token) {
    // A lock of this load's token next to a released token: the holder's release wrote it.
    const handed =
      record.meta.releasedToken !== undefined &&
      lock.jobId === context.jobId &&
      lock.presence === context.handoff;
    return { kind: 'take', reason: handed ? 'handed' : 'own' };
  }
  if (lock.jobId === context.jobId) {
    // Same server: a local profile still holding it is settled by the same-server rules.
    return isOrphanedHere(lock, context)
      ? { kind: 'take', reason: 'orphaned', from: lock }
      : { kind: 'locked', holder: lock, stale: false };
  }
  if (lock.presence && context.stealFrom === lock.jobId) {
    return { kind: 'take', reason: 'stolen', from: lock };
  }
  if (!isStale(lock, context.now, context)) return { kind: 'locked', holder: lock, stale: false };
  // Stale by age. Only a flagged lock, read by a server that itself beats presence, can be
  // protected, and only by an answer of "alive": an unknown answer does not protect it.
  if (!lock.presence || !context.handoff) return { kind: 'take', reason: 'stale', from: lock };
  const answer = context.holderPresence;
  if (answer === undefined || answer.jobId !== lock.jobId) {
    return { kind: 'read-presence', holder: lock };
  }
  return answer.alive === true
    ? { kind: 'locked', holder: lock, stale: true }
    : { kind: 'take', reason: 'stale', from: lock };
}

export type SaveDecision =
  | { readonly kind: 'write' }
  /** Adoption after a lost response: our own release is the last write, so retake the lock. */
  | { readonly kind: 'retake' }
  | { readonly kind: 'lost'; readonly holder?: LockInfo };

/**
 * Whether a save under `token` may write. Only the lock's own token writes; an adoption
 * (`retake`) may also relock a record whose last write was its own release.
 */
export function decideSave(
  record: ProfileRecord | undefined,
  token: string,
  options: { readonly retake: boolean } = { retake: false },
): SaveDecision {
  const lock = record?.meta.lock;
  if (lock?.token === token) return { kind: 'write' };
  if (record !== undefined && lock === undefined && options.retake) {
    if (record.meta.releasedToken === token) return { kind: 'retake' };
  }
  return lock === undefined ? { kind: 'lost' } : { kind: 'lost', holder: lock };
}

export type ReleaseDecision =
  | { readonly kind: 'write' }
  /** An earlier release under this token committed (its response was lost): nothing to do. */
  | { readonly kind: 'already-released' }
  | { readonly kind: 'lost'; readonly holder?: LockInfo };

export function decideRelease(record: ProfileRecord | undefined, token: string): ReleaseDecision {
  const lock = record?.meta.lock;
  if (lock?.token === token) return { kind: 'write' };
  // The last write is this token's release, with no lock or the lock it handed over (every
  // later write drops the released token).
  if (record !== undefined && record.meta.releasedToken === token) {
    return { kind: 'already-released' };
  }
  return lock === undefined ? { kind: 'lost' } : { kind: 'lost', holder: lock };
}
