/**
 * What one reader has seen of each presence key, timed on the reader's own monotonic clock.
 * A key counts as expired once this reader has seen the same beat (a fresh id per `set`) for
 * at least the key's TTL. The beat was written before this reader first saw it, so by then at
 * least a TTL has truly passed since the last `set`: no writer's clock is consulted, and the
 * answer errs only towards "alive" (up to one TTL longer for a key this reader sees for the
 * first time).
 */
export class PresenceSightings {
  private readonly sightings = new Map<string, { readonly beat: string; readonly since: number }>();

  /** `now` must be monotonic (wall clocks jump): `performance.now()` by default. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** True until this reader has seen `beat` under `key` unchanged for `ttlMs`. */
  isFresh(key: string, beat: string, ttlMs: number): boolean {
    return this.leftMs(key, beat, ttlMs) > 0;
  }

  /** The ms until this reader reads `beat` under `key` as expired (at or below 0: it has). */
  leftMs(key: string, beat: string, ttlMs: number): number {
    const now = this.now();
    const seen = this.sightings.get(key);
    if (seen?.beat !== beat) {
      this.sightings.set(key, { beat, since: now });
      return ttlMs;
    }
    return seen.since + ttlMs - now;
  }

  /** The key is gone: forget it, so memory stays bounded by the servers alive. */
  forget(key: string): void {
    this.sightings.delete(key);
  }
}
