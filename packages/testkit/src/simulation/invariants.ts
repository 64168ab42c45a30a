/**
 * What the simulator holds DataDriver to: the lock handoff rules' promises, each with what the
 * rules deliberately allow. The checks live in commit-checks.ts (every store write, as it lands),
 * event-checks.ts (every driver event, as it is emitted), step-checks.ts (after every step),
 * final-phase.ts (after every fault is healed) and journal-checks.ts (at the very end).
 */
export const Invariant = {
  /**
   * One lock holder. Every committed write to a profile is by the session holding the lock
   * (same token), by a load taking the lock under a token never seen on the key before, or
   * by an adoption retaking its own release (unlocked, `releasedToken` = its token); an
   * unlocking write clears only the lock of the token it names; a lock names the server that
   * wrote it. So at any instant at most one session can commit a save.
   * Allows: two *active* profiles of one key for a while (a holder whose lock was taken while
   * its presence failed or stalled, or by age with an unknown answer, learns it at its next
   * save). Only one of them can commit, which is what is checked.
   */
  OneLockHolder: 'one-lock-holder',
  /**
   * A live holder keeps its lock. Another server's lock changes hands only (a) by age: its
   * holder's last committed write under it landed more than lockTtl + lockSkew ago on the
   * taker's clock (judged from the store's record of when that write landed and the two
   * servers' clock offsets, never from the time the lock carries); or (b) when it is flagged,
   * the taker has handoff on, the taker's last read of the holder's presence in this load
   * answered stopped, and the holder's presence key really was missing at two instants of the
   * load at least a beat apart (the presence history's truth, with the contract's key
   * lifetime: a read can fail, never lie, and two empty reads a beat apart need that).
   * Allows, as the rules do: a crashed, stopped or stalled server, or one whose presence
   * writes fail, reads as stopped and loses its locks (Gotchas); a server with handoff off
   * takes a stale flagged lock by age without reading presence (mixed versions).
   */
  LiveHolderKept: 'live-holder-kept',
  /**
   * A lock's time is its writer's clock at the write: every committed write that sets a lock
   * stamps it with the writing server's clock (the backend's clock when the write landed, plus
   * that server's offset), so a lock's age measures how long its holder has been silent. Judged
   * from the store's record of when each write landed, never from the time the record carries.
   */
  LockTime: 'lock-time',
  /**
   * A presence key lives the contract's lifetime (presenceTtlSeconds, 10 s by default) after
   * each beat: every presence write asks for exactly that TTL. The presence history judges
   * absences by the contract's lifetime, whatever a writer asked for.
   */
  PresenceLifetime: 'presence-lifetime',
  /**
   * Presence protection: a server with handoff on takes another server's flagged lock only
   * after reading the holder's presence in that load, and never after it read alive. An
   * unknown answer does not protect a stale lock (the lock handoff rules): it is taken by age as before.
   */
  PresenceProtection: 'presence-protection',
  /**
   * Mixed versions: a lock carries `presence: true` exactly when its writer has handoff on,
   * and a lock without the flag never changes hands through presence (reason `stolen`).
   */
  PresenceFlag: 'presence-flag',
  /**
   * A server's own lock that no session there holds any more is its to take (orphaned); one
   * that a session there still holds is never taken by another load on that server.
   */
  OwnServerLock: 'own-server-lock',
  /**
   * No rollback. A stored record's progress never falls and a trade it holds never
   * disappears; every save a server was told succeeded (`profile.saved`,
   * `profile.released`) is in the store under that session's token; every load starts at or
   * above the highest acknowledged progress of its key.
   * Allows: progress not yet saved when its server crashes, stops, or loses the lock by an
   * allowed takeover is lost ("progress after it was lost with the crash"); a write that
   * committed but whose response was lost is not acknowledged, so nothing is promised of it;
   * an adoption whose save fails ("unsaved": the rules have the player keep playing on the
   * retained profile) resumes the retained copy, which is older than what another server
   * saved when the leave save had committed with its response lost. That session's saves
   * then find the lock gone, so nothing stored is rolled back (one-lock-holder checks it).
   */
  NoRollback: 'no-rollback',
  /**
   * Every committed copy of a player's data is whole: coins = earned + the deltas of the
   * trades it lists, and each trade at most once (a trade applied twice, or half applied to
   * one record, breaks it).
   */
  Ledger: 'ledger',
  /**
   * A trade is applied to both profiles or to neither. In the settled view (a record whose
   * trade marker is untouched reads as its journal decides, as the next load would settle
   * it), each trade is in both participants or in neither; a trade reported committed is in
   * both and one reported failed is in neither. Checked after every step and on the final
   * loads, which settle every marker for real.
   */
  TradeAtomicity: 'trade-atomicity',
  /**
   * A recovering load settles a trade only once it may take the lock: a trade journal that a
   * server other than the trade's own decides must have every participant it marks unlocked,
   * locked by that server, or lockable by it (stale by its holder's last write, or flagged with
   * its holder's presence key missing a beat apart during the load). A load that meets a live
   * holder's marker waits; it never aborts that holder's trade.
   */
  RecoveryByTaker: 'recovery-by-taker',
  /**
   * A request carrying an old token never ends a newer session: a request naming a token
   * is acted on (kick, release, retry-release) only by the session holding that token.
   */
  LateRequestHarmless: 'late-request-harmless',
  /**
   * Every wait ends. A player's load ends (loaded or failed) within the same-server wait
   * (localHandoffSeconds, else lockWaitSeconds) plus lockWaitSeconds plus slack.
   * Allows: slack for the calls in flight when the deadline passes (see `waitBoundMs`); the
   * time the loading server's own calls were stalled or slowed by injected faults, which no
   * driver can time out; a crashed server's loads, which never end.
   */
  BoundedWait: 'bounded-wait',
  /** A player whose load failed is kicked, unless they left or the server is shutting down. */
  KickOnFailure: 'kick-on-failure',
  /**
   * A kick for a lost lock ends a loaded session: never a player whose load is still in
   * progress on that server. (When an adoption finds the lock gone, the rules have the profile
   * deactivate and the record load normally.)
   */
  KickJustified: 'kick-justified',
  /**
   * After every fault is healed (crashed servers stay crashed), every pending trade is
   * decided and every player can load again, within lockTtl + 2 lockSkew + 3 lockWait + 30 s:
   * handoff, presence expiry or age frees every lock.
   */
  FinalLiveness: 'final-liveness',
  /**
   * Trade journals keep no player data once their trade is settled: after the final phase,
   * a journal that no record's marker points to holds no entries (a settled one is deleted,
   * an aborted one keeps none).
   * Allows: the journals of a server that crashed or stopped (its settle may never run, and
   * a crash before the markers leaves a prepared journal nothing points to), and those of a
   * trade whose participant lost its lock on that server (the new holder's load settled the
   * marker and cannot know whether the other participant still needs the journal).
   */
  JournalsCleared: 'journals-cleared',
  /**
   * Drivers apart: a server's driver of another name, or over another backend, owns records no
   * other driver loads; sharing the server's jobId, its handoff and the process with the player
   * data's driver (and an older copy of it) must not reach them. Its loads never find a lock
   * but its own (each takes its record new or unlocked, adopts its own retained profile, or,
   * after one of its loads of that key failed with its take in flight, takes that take's
   * orphaned lock), and it never loses one.
   */
  DriversApart: 'drivers-apart',
  /**
   * Messages apply exactly once (message-checks.ts), judged from the committed writes and what
   * the senders were told: no committed copy lists a message twice, no write drops a message
   * applied or a transfer debited by an earlier one, a transfer is applied only once a write
   * debiting its sender committed; and once the fleet drained, every grant whose send resolved
   * and every transfer whose debit committed is applied exactly once, none lost.
   * Allows: a grant whose sends all failed (a crash or a lost response: the sender was told
   * nothing) applied once or not at all; a transfer whose debit never committed, never applied.
   */
  MessageOnce: 'message-once',
  /**
   * Coins moved by messages are conserved: once the fleet drained, the coins the players' stored
   * records hold, plus transfers debited and not yet applied (none by then), equal what they
   * earned plus the grants applied.
   */
  CoinsConserved: 'coins-conserved',
  /** The workload saw an error no driver call may raise (not a DataDriverError). */
  UnexpectedError: 'unexpected-error',
} as const;

export type InvariantName = (typeof Invariant)[keyof typeof Invariant];

export interface Violation {
  readonly invariant: InvariantName;
  readonly message: string;
  /** The backend's clock when it was seen. */
  readonly at: number;
  readonly key?: string;
  readonly server?: string;
}

/** Where violations are reported while a run goes on. */
export interface ViolationSink {
  report(violation: Omit<Violation, 'at'>): void;
}
