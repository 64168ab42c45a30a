import {
  repeatIntervalMs,
  type ScheduledTask,
  type Scheduler,
  type TaskPriority,
} from '../ports/scheduler.js';

interface Timer {
  readonly id: number;
  due: number;
  readonly intervalMs: number | undefined;
  readonly priority: TaskPriority;
  readonly callback: () => void;
  cancelled: boolean;
}

/**
 * Lets promise chains started by a timer run to their next wait on the clock, in `turns` turns
 * of the event loop. One is enough for promise chains, however deep: Node runs an immediate only
 * once the microtask queue is empty, and the in-memory ports queue no macrotasks. (Four turns,
 * as before, cost the simulator more than half its time in event-loop overhead, same traces.)
 */
async function drain(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export interface VirtualClockOptions {
  /**
   * Event-loop turns the clock lets pass after each timer (default 1). Raise it only for a port
   * of your own that settles through macrotasks (`setImmediate`, `setTimeout(0)`).
   */
  readonly settleTurns?: number;
}

/**
 * A clock for tests: time moves only when a test advances it, and timers fire in due order
 * (normal before background at the same instant, then in the order they were set). Between
 * timers the clock lets the work they started settle, so a whole multi-server exchange can run
 * in one `await clock.advance(...)` and be timed to the millisecond.
 */
export class VirtualClock implements Scheduler {
  private time: number;
  private sequence = 0;
  private readonly timers = new Map<number, Timer>();

  private readonly settleTurns: number;

  constructor(startMs = Date.UTC(2026, 0, 1), options: VirtualClockOptions = {}) {
    this.time = startMs;
    const turns = options.settleTurns ?? 1;
    if (!Number.isInteger(turns) || turns < 1) {
      throw new RangeError(`settleTurns must be a whole number of turns, at least 1, got ${turns}`);
    }
    this.settleTurns = turns;
  }

  now(): number {
    return this.time;
  }

  schedule(
    delayMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    return this.add(Math.max(0, delayMs), undefined, callback, priority);
  }

  repeat(
    intervalMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    return this.add(repeatIntervalMs(intervalMs), repeatIntervalMs(intervalMs), callback, priority);
  }

  /** Number of timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer falls due, or `undefined` with none waiting. */
  nextTimerAt(): number | undefined {
    return this.nextDue(Number.POSITIVE_INFINITY)?.due;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.time + ms);
  }

  /** Moves time forward to `target` (ms since epoch), firing due timers in order. */
  async advanceTo(target: number): Promise<void> {
    await drain(this.settleTurns);
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.time = Math.max(this.time, next.due);
      this.fire(next);
      await drain(this.settleTurns);
    }
    this.time = Math.max(this.time, target);
    await drain(this.settleTurns);
  }

  /**
   * Advances timer by timer until `promise` settles, and returns its result. Fails when it
   * has not settled after `limitMs` of virtual time: a test never hangs on a lost wake.
   */
  async run<T>(promise: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined);
    const limit = this.time + limitMs;
    await drain(this.settleTurns);
    while (!settled) {
      const next = this.nextDue(limit);
      if (!next) {
        throw new Error(`VirtualClock.run: still pending after ${limitMs} ms of virtual time`);
      }
      this.time = Math.max(this.time, next.due);
      this.fire(next);
      await drain(this.settleTurns);
    }
    return watched;
  }

  /** A view of this clock whose `now()` reads `offsetMs` ahead (or behind): a skewed server. */
  skewed(offsetMs: number): Scheduler {
    return {
      now: () => this.now() + offsetMs,
      schedule: (delay, callback, priority) => this.schedule(delay, callback, priority),
      repeat: (interval, callback, priority) => this.repeat(interval, callback, priority),
    };
  }

  private add(
    delayMs: number,
    intervalMs: number | undefined,
    callback: () => void,
    priority: TaskPriority,
  ): ScheduledTask {
    this.sequence += 1;
    const timer: Timer = {
      id: this.sequence,
      due: this.time + delayMs,
      intervalMs,
      priority,
      callback,
      cancelled: false,
    };
    this.timers.set(timer.id, timer);
    return {
      cancel: () => {
        timer.cancelled = true;
        this.timers.delete(timer.id);
      },
    };
  }

  private nextDue(limit: number): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.timers.values()) {
      if (timer.due > limit) continue;
      if (best === undefined || compare(timer, best) < 0) best = timer;
    }
    return best;
  }

  private fire(timer: Timer): void {
    if (timer.intervalMs === undefined) this.timers.delete(timer.id);
    else timer.due += timer.intervalMs;
    timer.callback();
  }
}

function compare(a: Timer, b: Timer): number {
  if (a.due !== b.due) return a.due - b.due;
  if (a.priority !== b.priority) return a.priority === 'normal' ? -1 : 1;
  return a.id - b.id;
}
