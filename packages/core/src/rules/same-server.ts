/**
 * The same-server rules of a load (the seed's same-server rejoin): while the key is still
 * loading here, or its profile is still active or saving its leave, the load waits, up to its
 * same-server wait; a retained profile (its leave save failed) is adopted, unless a write or a
 * trade still holds it; a key free here is reserved. Pure: the facts in, the decision out;
 * `load/local-wait.ts` acts on it.
 */
import type { WaitReason } from '../events.js';
import type { SessionState } from './session-state.js';

export interface SameServerFacts {
  /** A load of the key is in flight here. */
  readonly loading: boolean;
  /** The key's session here, if any. */
  readonly session?: {
    readonly state: SessionState;
    /** A write of it is queued or running. */
    readonly writing: boolean;
    /** A trade holds it. */
    readonly traded: boolean;
  };
  /** What is left of this load's same-server wait. */
  readonly remainingMs: number;
}

export type SameServerDecision =
  /** Nothing holds the key here: reserve it for this load, in the same tick. */
  | { readonly kind: 'reserve' }
  /** Take the retained profile back. */
  | { readonly kind: 'adopt' }
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
  return facts.remainingMs <= 0 ? { kind: 'give-up', reason } : { kind: 'wait', reason };
}

function waitReason(loading: boolean, state: SessionState | undefined): WaitReason {
  if (loading) return 'local-load';
  return state === 'leaving' || state === 'retained' ? 'local-release' : 'local-session';
}
