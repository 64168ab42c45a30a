/**
 * The same-server rules of a load (the seed's same-server rejoin): while the key is still
 * loading here, or its profile is still active or saving its leave, the load waits, up to its
 * same-server wait; a retained profile (its leave save failed) is adopted, unless a write or a
 * trade still holds it; a key free here is reserved. A player who connects again while their
 * older connection still plays here takes the profile over: the older one is kicked. Pure: the facts in, the decision out;
 * `load/local-wait.ts` acts on it.
 */
import type { SessionState } from './session-state.js';

/** Why a load waits on this server (the `wait` event's reason). */
export type WaitReason = 'local-load' | 'local-release' | 'local-session' | 'locked';

export interface SameServerFacts {
  /** A load of the key is in flight here. */
  readonly loading: boolean;
  /** The key's session here, if any. */
  readonly session?:
    | {
        readonly state: SessionState;
        /** A write of it is queued or running. */
        readonly writing: boolean;
        /** A trade holds it. */
        readonly traded: boolean;
        /** It is loaded for another player of the host than the one this load is for. */
        readonly otherPlayer: boolean;
      }
    | undefined;
  /** What is left of this load's same-server wait. */
  readonly remainingMs: number;
}

export type SameServerDecision =
  /** Nothing holds the key here: reserve it for this load, in the same tick. */
  | { readonly kind: 'reserve' }
  /** Take the retained profile back. */
  | { readonly kind: 'adopt' }
  /**
   * The same player connected again: the newer connection wins. Kick the session's older one
   * (its leave save runs), then wait for that leave like any same-server rejoin.
   */
  | { readonly kind: 'replace' }
  /** Park until something changes here, or the wait runs out. */
  | { readonly kind: 'wait'; readonly reason: WaitReason }
  /** The wait ran out: `Data.Locked` (this server). */
  | { readonly kind: 'give-up'; readonly reason: WaitReason };

export function decideSameServer(facts: SameServerFacts): SameServerDecision {
  const { loading, session } = facts;
  if (!loading && (!session || session.state === 'inactive')) return { kind: 'reserve' };
  if (!loading && session?.state === 'retained' && !session.writing && !session.traded) {
    return { kind: 'adopt' };
  }
  const reason = waitReason(loading, session?.state);
  if (facts.remainingMs <= 0) return { kind: 'give-up', reason };
  if (!loading && session?.state === 'active' && session.otherPlayer) return { kind: 'replace' };
  return { kind: 'wait', reason };
}

function waitReason(loading: boolean, state: SessionState | undefined): WaitReason {
  if (loading) return 'local-load';
  return state === 'leaving' || state === 'retained' ? 'local-release' : 'local-session';
}
