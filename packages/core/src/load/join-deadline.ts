/**
 * The bounds of the cross-server wait. `lockWaitSeconds` bounds the wait itself: no park, no
 * wait for a publish (a release request is never awaited) and no presence read lasts past it.
 * A store attempt still in flight at the deadline may be taking the lock, so it is awaited, but
 * only until the hard end, one presence TTL past the deadline; a lock it takes after that is
 * released (`late-lock.ts`). A presence read ends at the deadline. It is not cut sooner: a slow
 * read cut short would count as unknown, and an unknown answer does not protect a stale lock, so
 * a slow presence backend would let a live holder's lock be taken by age.
 */

import type { DriverContext } from '../context/context.js';
import type { HandoffTimings } from '../handoff/timings.js';
import { DataDriverError, ErrorCode, rethrow } from '../ports/errors.js';
import type { ScheduledTask, Scheduler } from '../ports/scheduler.js';
import type { TimerQueue } from '../ports/timer-queue.js';

/** What a bounded call resolved with, or `late` when its bound came first. */
export type Bounded<T> = { readonly late: false; readonly value: T } | { readonly late: true };

export class JoinDeadline {
  /** When `lockWaitSeconds` runs out: no wait lasts past it. */
  readonly at: number;
  /** The latest a store attempt in flight at `at` is awaited. */
  readonly hardEnd: number;

  constructor(
    private readonly scheduler: Scheduler,
    /** When `lockWaitSeconds` runs out (ms since the epoch). */
    at: number,
    private readonly timings: HandoffTimings,
    /** The driver's queue for store attempts' hard ends: every load's falls due in load order. */
    private readonly hardEnds: TimerQueue,
  ) {
    this.at = at;
    this.hardEnd = this.at + timings.presenceTtlSeconds * 1000;
  }

  /** The deadline of a wait that starts `now`, on `context`'s clock and settings. */
  static startingAt(
    context: Pick<DriverContext, 'scheduler' | 'settings' | 'link' | 'hardEnds'>,
    now: number,
  ): JoinDeadline {
    const { scheduler, settings, link, hardEnds } = context;
    return new JoinDeadline(scheduler, now + settings.lockWaitMs, link.timings, hardEnds);
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
   * A store attempt: what `settle` makes of its result, or of `late` at the hard end, and what
   * `failed` makes of its rejection. Both run in the race's own callbacks: an attempt costs no
   * promise more than the race's, and neither does a caller that goes on from it.
   */
  storeCall<T, R>(
    work: Promise<T>,
    settle: (bounded: Bounded<T>) => R | PromiseLike<R>,
    failed: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    return this.race(work, (late) => this.hardEnds.at(this.hardEnd, late), settle, failed);
  }

  /**
   * A presence read: its answer, or `late` at the deadline (the hard end for a read that starts
   * after it, inside the last attempt).
   */
  presenceCall<T>(work: Promise<T>): Promise<Bounded<T>> {
    const now = this.scheduler.now();
    const end = now < this.at ? this.at : this.hardEnd;
    return this.race(
      work,
      (late) => this.scheduler.schedule(end - now, late),
      (bounded) => bounded,
    );
  }

  /** The error of a store attempt that outlasted the hard end. */
  storeTimeout(key: string): DataDriverError {
    return new DataDriverError(
      ErrorCode.Timeout,
      `the store did not answer the load of ${key} by ${this.timings.presenceTtlSeconds} s past lockWaitSeconds; a lock it takes later is released`,
      { details: { key } },
    );
  }

  /**
   * `work`, or `late` from the timer `bound` sets (at the race's end); a rejection of `work`
   * before that goes to `failed` (rejects, without one). What either throws rejects.
   */
  private race<T, R>(
    work: Promise<T>,
    bound: (late: () => void) => ScheduledTask,
    settle: (bounded: Bounded<T>) => R | PromiseLike<R>,
    failed?: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    return new Promise((resolve, reject) => {
      let settled = false; // one of `settle` and `failed` runs, once: for the first to come
      const end = <A>(how: (argument: A) => R | PromiseLike<R>, argument: A) => {
        if (settled) return;
        settled = true;
        try {
          resolve(how(argument));
        } catch (error) {
          reject(error);
        }
      };
      let timer: ScheduledTask;
      try {
        timer = bound(() => end(settle, { late: true }));
      } catch (error) {
        work.catch(() => undefined); // unbounded now: its outcome is no longer read
        end(failed ?? rethrow, error);
        return;
      }
      work.then(
        (value) => {
          timer.cancel();
          end(settle, { late: false, value });
        },
        (error: unknown) => {
          timer.cancel();
          end(failed ?? rethrow, error);
        },
      );
    });
  }
}
