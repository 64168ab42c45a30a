/**
 * What the lock rules would decide if a server loaded the record now, computed by core's own
 * `decideLoad` (never re-implemented here): the server is one with handoff on that holds no
 * lock of its own on the record, at this machine's clock.
 */
import {
  DEFAULTS,
  decideLoad,
  type LoadContext,
  type LoadDecision,
  type LockTimes,
  type ProfileRecord,
  type TakeReason,
} from '@datadriver/core/rules';
import type { Liveness } from './liveness.js';

export type VerdictState =
  /** A load takes it at once. */
  | 'takeable'
  /** Held by a live or unanswered server: a join asks it to hand over and waits. */
  | 'locked'
  /** Stale by age, but its holder beats presence: it keeps its lock. */
  | 'protected'
  /** Stale by age and unprotected: a load takes it by age. */
  | 'stale'
  /** Its holder stopped beating presence: a join takes it after two empty reads a beat apart. */
  | 'holder-stopped';

export interface Verdict {
  readonly state: VerdictState;
  /** `decideLoad`'s decision for a load now, after a presence read where it asks for one. */
  readonly decision: LoadDecision;
  /** The decision once the holder is proven stopped (`stealFrom`), when that differs. */
  readonly whenProvenStopped?: LoadDecision;
  /** When the lock becomes stale by age (ms since the epoch), if it has a lock. */
  readonly staleAt?: number;
  readonly explanation: string;
}

export interface VerdictInput extends Partial<LockTimes> {
  readonly now: number;
  /** The jobId the imagined loading server has (the CLI's own). */
  readonly viewer: string;
  readonly liveness: Liveness | undefined;
  readonly lockWaitSeconds?: number;
}

export function verdictOf(record: ProfileRecord | undefined, input: VerdictInput): Verdict {
  const times: LockTimes = {
    lockTtlSeconds: input.lockTtlSeconds ?? DEFAULTS.lockTtlSeconds,
    lockSkewSeconds: input.lockSkewSeconds ?? DEFAULTS.lockSkewSeconds,
  };
  const context: LoadContext = {
    ...times,
    jobId: input.viewer,
    token: `${input.viewer}-inspect`,
    now: input.now,
    handoff: true,
    heldHere: () => false,
  };
  let decision = decideLoad(record, context);
  const lock = record?.meta.lock;
  const alive =
    input.liveness === undefined || input.liveness.answer === 'unknown'
      ? undefined
      : input.liveness.answer === 'alive';
  if (decision.kind === 'read-presence') {
    decision = decideLoad(record, {
      ...context,
      holderPresence: { jobId: decision.holder.jobId, alive },
    });
  }
  if (!lock) {
    return { state: 'takeable', decision, explanation: takeText(decision) };
  }
  const staleAt = lock.time + (times.lockTtlSeconds + times.lockSkewSeconds) * 1000;
  if (decision.kind === 'take') {
    return {
      state: decision.reason === 'stale' ? 'stale' : 'takeable',
      decision,
      staleAt,
      explanation: takeText(decision),
    };
  }
  if (decision.kind === 'locked' && decision.stale) {
    return {
      state: 'protected',
      decision,
      staleAt,
      explanation: `stale by age (no write for over ${times.lockTtlSeconds + times.lockSkewSeconds} s), but server ${lock.jobId} still beats presence, so it keeps its lock: a joining server asks it to hand over, and fails closed after lockWaitSeconds if it does not`,
    };
  }
  const whenProvenStopped = decideLoad(record, { ...context, stealFrom: lock.jobId });
  const stealable = whenProvenStopped.kind === 'take';
  if (stealable && alive === false) {
    return {
      state: 'holder-stopped',
      decision,
      whenProvenStopped,
      staleAt,
      explanation: `server ${lock.jobId} does not beat presence: a joining server takes the lock after two empty presence reads a beat apart (about 3 s), and loads the last save`,
    };
  }
  const wait = input.lockWaitSeconds ?? DEFAULTS.lockWaitSeconds;
  const byAge = `it changes hands by release, or by age from ${new Date(staleAt).toISOString()}`;
  const how = !lock.presence
    ? `the lock has no presence flag (an older build, or handoff off): no request is answered; ${byAge}`
    : alive === true
      ? `server ${lock.jobId} beats presence: a joining server asks it to hand over, which takes about one save; if it does not answer, the join fails closed after ${wait} s`
      : `a joining server asks server ${lock.jobId} to hand over and reads its presence (unknown now), for up to ${wait} s; ${byAge}`;
  return {
    state: 'locked',
    decision,
    ...(stealable ? { whenProvenStopped } : {}),
    staleAt,
    explanation: `locked by server ${lock.jobId}: ${how}`,
  };
}

function takeText(decision: LoadDecision): string {
  const reason: TakeReason | undefined = decision.kind === 'take' ? decision.reason : undefined;
  switch (reason) {
    case 'new':
      return 'no record: a load creates it from the defaults';
    case 'unlocked':
      return 'not locked: a load takes it at once';
    case 'stale':
      return 'stale: its holder has not written for longer than lockTtlSeconds + lockSkewSeconds and no live presence protects it, so a load takes it by age';
    default:
      return `a load takes it (${reason})`;
  }
}
