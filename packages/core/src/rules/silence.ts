/**
 * The seed's crash rule: two presence reads at least one beat apart that both find no key
 * mark the holder as stopped. Pure: the caller passes each answer and the time it came.
 */
export class Silence {
  private holder: string | undefined;
  private firstEmptyAt: number | undefined;

  constructor(private readonly beatMs: number) {}

  record(holder: string, alive: boolean | undefined, now: number): boolean {
    if (holder !== this.holder) {
      this.holder = holder;
      this.firstEmptyAt = undefined;
    }
    if (alive === true) this.firstEmptyAt = undefined;
    if (alive !== false) return false; // an unknown answer proves nothing either way
    if (this.firstEmptyAt === undefined) this.firstEmptyAt = now;
    return now - this.firstEmptyAt >= this.beatMs;
  }

  /** How long until a second empty read would count, or `undefined` with no first one. */
  untilSecondRead(now: number): number | undefined {
    return this.firstEmptyAt === undefined ? undefined : this.firstEmptyAt + this.beatMs - now;
  }
}
