/**
 * How long a waiting load parks on the holder's reply before its next attempt and presence
 * read. The seed's park is 0.5 s doubling to 2 s, never past `lockWaitSeconds`. Once a read
 * found the holder's key gone, the park ends when a second empty read would count (one beat
 * after the first), so the takeover is not a park late.
 *
 * On a slow store the beat can come due during the attempt that follows a "stopped" read:
 * the next read then counts as soon as it may run, so the park lasts only until the 0.5 s read
 * spacing allows it, instead of a whole doubled park (up to 2 s past the seed's 15 s). After
 * an "unknown" answer the park stays whole: a presence outage must not turn into a stream of
 * reads and attempts.
 *
 * When the last read found the holder alive and the presence told how long its key has left
 * (`Presence.getEntry`), the park ends as the key expires, so a holder that stopped beating is
 * read as stopped on time rather than up to a whole park later (the crash is then proven one
 * beat after its key expired). Two reads stay at least a presence retry (0.25 s) apart, so a
 * presence that keeps answering "alive, expiring now" cannot make a stream either.
 */
/** What a presence read answered of a holder (the `presence` event's answer). */
export type PresenceAnswerName = 'alive' | 'stopped' | 'unknown';

export interface ParkFacts {
  /** The park the doubling has reached (0.5 s, 1 s, then 2 s). */
  readonly doublingMs: number;
  /** Time left until `lockWaitSeconds` runs out. */
  readonly untilDeadlineMs: number;
  /** Time until a second empty read would count, `undefined` before a first empty read. */
  readonly untilSecondReadMs: number | undefined;
  /**
   * The last presence read of this wait, when the wake after this park reads the same
   * holder's presence: its answer, how long ago it started, and whether it completed the
   * proof (a second empty read a beat after the first). `undefined` otherwise.
   */
  readonly lastRead:
    | { readonly answer: PresenceAnswerName; readonly agoMs: number; readonly proved: boolean }
    | undefined;
  /** The least spacing of two presence reads (the seed's first park, 0.5 s). */
  readonly minSpacingMs: number;
  /**
   * Time until the holder's presence key expires, by the last read when it found the holder
   * alive and the presence told (`undefined` otherwise); at or below 0 once that time passed.
   */
  readonly untilExpiryMs?: number | undefined;
  /** The least spacing of a read made as the key expires and the read before (0.25 s). */
  readonly expiryReadSpacingMs?: number;
}

export function parkLength(facts: ParkFacts): number {
  const whole = Math.min(facts.doublingMs, facts.untilDeadlineMs);
  const untilSecond = facts.untilSecondReadMs;
  if (untilSecond === undefined) return Math.max(0, Math.min(whole, untilExpiry(facts)));
  if (untilSecond > 0) return Math.max(0, Math.min(whole, untilSecond));
  return Math.max(0, Math.min(whole, spacingLeft(facts.lastRead, facts.minSpacingMs)));
}

/**
 * Time until the read spacing allows the next read, when the beat came due after a "stopped"
 * read that did not complete the proof (the next read then does); else no shortening.
 */
function spacingLeft(lastRead: ParkFacts['lastRead'], minSpacingMs: number): number {
  if (lastRead?.answer !== 'stopped' || lastRead.proved) return Number.POSITIVE_INFINITY;
  return minSpacingMs - lastRead.agoMs;
}

/** Time until the read as the holder's key expires may run; else no shortening. */
function untilExpiry(facts: ParkFacts): number {
  const { lastRead, untilExpiryMs, expiryReadSpacingMs = 0 } = facts;
  if (lastRead?.answer !== 'alive' || untilExpiryMs === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(untilExpiryMs, expiryReadSpacingMs - lastRead.agoMs);
}
