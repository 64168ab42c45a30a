/**
 * How versions are stamped. DynamoDB has no clock a write can read, so a version takes the
 * writer's clock; the record item remembers its newest version's time and sequence number, and
 * the next version is stamped no earlier than 1 ms after it. A key's versions are thereby in
 * commit order, with unique times, even when servers' clocks disagree: a server whose clock
 * runs behind stamps just after the newest version instead of before it.
 */

/** A version's place in its key's history. */
export interface VersionMark {
  /** When it was written: ms since the epoch on the writer's clock, made monotonic per key. */
  readonly time: number;
  /** 1 for a key's first version, one more for each next one: what retention counts by. */
  readonly seq: number;
}

/** The mark of the version after `newest` (none: the key's first), written at `now`. */
export function nextMark(newest: VersionMark | undefined, now: number): VersionMark {
  const time = Math.floor(now);
  if (newest === undefined) return { time, seq: 1 };
  return { time: Math.max(time, newest.time + 1), seq: newest.seq + 1 };
}
