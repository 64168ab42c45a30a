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
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { ScheduledTask, Scheduler } from '../ports/scheduler.js';
import type { TimerQueue } from '../ports/timer-queue.js';
import { type Bounded, BoundedCall } from './bounded-call.js';

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
   * The timer of a store attempt's hard end (`BoundedCall.arm`), on the driver's queue of them:
   * `late` runs at the hard end unless the timer is cancelled.
   */
  armHardEnd(late: () => void): ScheduledTask {
    return this.hardEnds.at(this.hardEnd, late);
  }

  /**
   * A presence read: its answer, or `late` at the deadline (the hard end for a read that starts
   * after it, inside the last attempt).
   */
  presenceCall<T>(work: Promise<T>): Promise<Bounded<T>> {
    const now = this.scheduler.now();
    const end = now < this.at ? this.at : this.hardEnd;
    return new PresenceCall<T>(this.scheduler, end - now).run(work);
  }

  /** The error of a store attempt that outlasted the hard end. */
  storeTimeout(key: string): DataDriverError {
    return new DataDriverError(
      ErrorCode.Timeout,
      `the store did not answer the load of ${key} by ${this.timings.presenceTtlSeconds} s past lockWaitSeconds; a lock it takes later is released`,
      { details: { key } },
    );
  }
}

/** A presence read raced against its bound, `delayMs` from now: a rejection rejects. */
class PresenceCall<T> extends BoundedCall<T, Bounded<T>> {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly delayMs: number,
  ) {
    super();
  }

  run(work: Promise<T>): Promise<Bounded<T>> {
    return this.race(work);
  }

  protected arm(late: () => void): ScheduledTask {
    return this.scheduler.schedule(this.delayMs, late);
  }

  protected settle(bounded: Bounded<T>): Bounded<T> {
    return bounded;
  }

  protected failed(error: unknown): never {
    throw error;
  }
}
