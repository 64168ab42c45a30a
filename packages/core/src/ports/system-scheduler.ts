import {
  repeatIntervalMs,
  type ScheduledTask,
  type Scheduler,
  type TaskPriority,
} from './scheduler.js';

/** Arms one timer and returns what disarms it. */
export type SetTimer = (callback: () => void, delayMs: number, background: boolean) => () => void;

/** Seams for tests; production uses the defaults. */
export interface SystemSchedulerOptions {
  /** The clock `now()` reads and due times are judged by (default `Date.now`). */
  readonly now?: () => number;
  /** Arms a one-shot timer (default Node's `setTimeout`, unref'd when `background`). */
  readonly setTimer?: SetTimer;
}

/** Node's longest timer: a longer delay fires at once, so longer waits are armed in parts. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function nodeTimer(callback: () => void, delayMs: number, background: boolean): () => void {
  const timer = setTimeout(callback, delayMs);
  if (background) timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Real time and Node timers. Background tasks are unref'd: they never hold a process open.
 *
 * A callback never runs before its due time as `now()` reports it. Node counts a timer from
 * the event loop's cached time, so a callback can run a millisecond or more before
 * `Date.now()` reaches its due time; a wait that then checks "has `beatMs` passed?" (the
 * handoff's two empty reads) would fail by that much and cost a whole extra park. An early
 * timer is re-armed for the remainder instead.
 */
export class SystemScheduler implements Scheduler {
  private readonly clock: () => number;
  private readonly setTimer: SetTimer;

  constructor(options: SystemSchedulerOptions = {}) {
    this.clock = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? nodeTimer;
  }

  now(): number {
    return this.clock();
  }

  schedule(
    delayMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    const timer = new PunctualTimer(this.clock, this.setTimer, priority === 'background');
    const now = this.now();
    timer.arm(now + Math.max(0, delayMs), callback, now);
    return timer;
  }

  /** Each run is due `intervalMs` after the previous one ran (as Node's `setInterval`). */
  repeat(
    intervalMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    const interval = repeatIntervalMs(intervalMs);
    const timer = new PunctualTimer(this.clock, this.setTimer, priority === 'background');
    const tick = (): void => {
      // Armed before the callback runs, so a cancel() from inside the callback disarms it.
      const now = this.now();
      timer.arm(now + interval, tick, now);
      callback();
    };
    const now = this.now();
    timer.arm(now + interval, tick, now);
    return timer;
  }
}

/** One pending wake-up at a time, re-armed until `now()` reaches its due time. */
class PunctualTimer implements ScheduledTask {
  private disarm: (() => void) | undefined;
  private cancelled = false;

  constructor(
    private readonly now: () => number,
    private readonly setTimer: SetTimer,
    private readonly background: boolean,
  ) {}

  /** Runs `callback` once `now()` reaches `due`, unless cancelled first; `now`: read just before. */
  arm(due: number, callback: () => void, now: number): void {
    if (this.cancelled) return;
    const wake = (): void => {
      this.disarm = undefined;
      if (this.cancelled) return;
      const now = this.now();
      if (now < due) this.disarm = this.setTimer(wake, delayUntil(due, now), this.background);
      else callback();
    };
    this.disarm = this.setTimer(wake, delayUntil(due, now), this.background);
  }

  cancel(): void {
    this.cancelled = true;
    this.disarm?.();
    this.disarm = undefined;
  }
}

function delayUntil(due: number, now: number): number {
  return Math.min(Math.max(0, due - now), MAX_TIMER_MS);
}
