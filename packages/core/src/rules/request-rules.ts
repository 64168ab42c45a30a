/**
 * The holder's answer to another server's request to release a key (the seed's "the holder
 * routes the request..."): reply at once when this server no longer holds the key or holds it
 * under another token, wait for a load in flight that wrote the lock named, retry a failed
 * leave save, kick a live player, or release a profile no player holds. Pure: the facts in,
 * the action out; `holder/holder-answers.ts` acts on it.
 */
import type { SessionState } from './session-state.js';

/** What the holder does with a release request (the `request` event's action). */
export type RequestAction =
  | 'reply'
  | 'kick'
  | 'release'
  | 'retry-release'
  | 'await-load'
  | 'await-release'
  /** Too many servers already wait for this key: recorded nowhere, answered by no reply. */
  | 'ignored';

export interface RequestFacts {
  /** The lock token the requester saw (`L`), if it named one. */
  readonly token: string | undefined;
  /** The load of the key in flight here, if any. */
  readonly load?: {
    readonly token: string;
    /** Its requesters are full and this one is not among them. */
    readonly full: boolean;
  };
  /** The key's session here, if any. */
  readonly session?: {
    readonly token: string;
    readonly state: SessionState;
    /** A write of it is queued or running. */
    readonly writing: boolean;
    /** It is loaded for a player of the host. */
    readonly player: boolean;
    /** Its requesters are full and this one is not among them. */
    readonly full: boolean;
  };
  /** The driver is attached to a host, which can kick a player. */
  readonly attached: boolean;
}

export function decideRequest(facts: RequestFacts): RequestAction {
  const { token, load, session } = facts;
  // A load in flight is awaited only when the request names its lock (an attempt whose
  // response was lost): a late request naming an older lock is answered at once.
  if (load && (token === undefined || token === load.token)) {
    return load.full ? 'ignored' : 'await-load';
  }
  if (!session || session.state === 'inactive') return 'reply';
  // The player came back here and holds a newer lock: a late request must not end it.
  if (token !== undefined && token !== session.token) return 'reply';
  if (session.full) return 'ignored';
  if (session.state === 'retained') return session.writing ? 'await-release' : 'retry-release';
  if (session.state !== 'active') return 'await-release'; // ending or leaving: on its way out
  return session.player && facts.attached ? 'kick' : 'release';
}
