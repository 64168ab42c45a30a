/**
 * The bound of the cross-server wait. `lockWaitSeconds` bounds the wait itself: no park, no
 * wait for a publish (a release request is never awaited) and no presence read lasts past it.
 * A presence read also ends one beat after it started: a read that has not answered by then
 * counts as unknown, as a failed one does, so a hung presence backend costs the wait no more
 * than a beat per read. The read and the store attempt after the last wake run from the
 * deadline and decide the join (a store attempt is awaited: the store's own timeouts bound it).
 */
import type { Scheduler } from '../ports/scheduler.js';
import type { HandoffTimings } from '../timings.js';

/** What a bounded call resolved with, or `late` when its bound came first. */
export type Bounded<T> = { readonly late: false; readonly value: T } | { readonly late: true };

export class JoinDeadline {
  /** When `lockWaitSeconds` runs out: no wait lasts past it. */
  readonly at: number;

  constructor(
    private readonly scheduler: Scheduler,
    lockWaitMs: number,
    private readonly timings: HandoffTimings,
  ) {
    this.at = scheduler.now() + lockWaitMs;
  }

  /** Time left until the deadline (never negative). */
  leftMs(): number {
    return Math.max(0, this.at - this.scheduler.now());
  }

  /** True once the deadline has passed. */
  get passed(): boolean {
    return this.scheduler.now() >= this.at;
  }

  /**
   * A presence read: its answer, or `late` one beat after it started, or at the deadline for a
   * read that started before it, whichever comes first.
   */
  presenceCall<T>(work: Promise<T>): Promise<Bounded<T>> {
    const now = this.scheduler.now();
    const afterBeat = now + this.timings.beatSeconds * 1000;
    return this.race(work, now < this.at ? Math.min(this.at, afterBeat) : afterBeat);
  }

  private race<T>(work: Promise<T>, end: number): Promise<Bounded<T>> {
    return new Promise((resolve, reject) => {
      const timer = this.scheduler.schedule(end - this.scheduler.now(), () =>
        resolve({ late: true }),
      );
      work.then(
        (value) => {
          timer.cancel();
          resolve({ late: false, value });
        },
        (error: unknown) => {
          timer.cancel();
          reject(error);
        },
      );
    });
  }
}
