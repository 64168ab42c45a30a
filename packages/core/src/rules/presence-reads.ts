/**
 * When a waiting load reads the holder's presence after a wake. A wake by the park's timeout
 * always reads (the seed: "it reads the holder's presence after each wake"). A reply means the
 * holder let go, so the load tries again at once without reading; but a reply can be late,
 * duplicated or spoofed, and a stream of them must never starve the reads a crash takeover
 * needs. So once a reply for a lock has been followed by finding that same lock again, replies
 * for it stop skipping reads, which are then spaced at least `minSpacingMs` apart.
 */
export interface WakeFacts {
  /** The wake was a reply (else the park's timeout). */
  readonly replied: boolean;
  /** An earlier reply woke this wait, and the attempt after it found the very same lock. */
  readonly replyProvedFalse: boolean;
  /** Time since the last presence read of this wait, or `undefined` before the first. */
  readonly sinceLastReadMs: number | undefined;
  readonly minSpacingMs: number;
}

export function readsPresenceAfterWake(wake: WakeFacts): boolean {
  if (!wake.replied) return true;
  if (!wake.replyProvedFalse) return false;
  return wake.sinceLastReadMs === undefined || wake.sinceLastReadMs >= wake.minSpacingMs;
}
