/**
 * Where a loaded profile's session is in its life, and the named transitions between states.
 * Pure: the session (`session/profile-session.ts`) is the one place that moves its state, and
 * only through `nextState`.
 */
export type SessionState =
  /** The player plays: saves and trades are accepted, autosave runs. */
  | 'active'
  /** Still active, but its player was kicked: the leave is coming (requests wait for it). */
  | 'ending'
  /** The release is running: the game's leave cleanups, then the leave save. */
  | 'leaving'
  /**
   * The leave save failed: the profile is kept under its lock, newest copy, and the release is
   * retried on the autosave period; a rejoin on this server adopts it.
   */
  | 'retained'
  /** Released, erased, or lost to another server: nothing more is written. */
  | 'inactive';

export type SessionTransition =
  /** The player was kicked (joined elsewhere, a lost lock, a newer connection). */
  | 'kick'
  /** The release begins (the player left, a request, a close, a retry of a failed one). */
  | 'leave'
  /** The leave save failed. */
  | 'leave-failed'
  /** A load on this server takes the retained profile back. */
  | 'adopt'
  /** The leave save landed. */
  | 'released'
  /** The record was deleted under the lock. */
  | 'erased'
  /** A write found the lock taken by another server. */
  | 'lost';

/** A session stops holding its lock from any state it is alive in. */
const ENDED = {
  active: 'inactive',
  ending: 'inactive',
  leaving: 'inactive',
  retained: 'inactive',
} as const;

const TRANSITIONS: Readonly<
  Record<SessionTransition, Partial<Record<SessionState, SessionState>>>
> = {
  kick: { active: 'ending' },
  leave: { active: 'leaving', ending: 'leaving', retained: 'leaving' },
  'leave-failed': { leaving: 'retained' },
  adopt: { retained: 'active' },
  released: ENDED,
  erased: ENDED,
  lost: ENDED,
};

/** The state after `transition`, or `undefined` when it does not apply in `state`. */
export function nextState(
  state: SessionState,
  transition: SessionTransition,
): SessionState | undefined {
  return TRANSITIONS[transition][state];
}

/** True while the profile accepts changes: saves, trades, autosave. */
export function isActive(state: SessionState): boolean {
  return state === 'active' || state === 'ending';
}
