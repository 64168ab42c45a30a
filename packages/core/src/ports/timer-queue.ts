/**
 * Timers that mostly fall due in the order they are set, on one task of the scheduler: every
 * profile's autosave (each due one period after it was set) and every load attempt's hard end
 * (each one wait after its load began). Setting one is a list append and cancelling it an
 * unlink: a server with thousands of profiles keeps one Node timer for their autosaves, not
 * thousands, and a load pays no timer of its own for a bound that nearly never fires (set and
 * cleared, those were a twentieth of a load + save + release's CPU).
 *
 * The one task is armed for the first timer of the list. Cancelling that timer leaves the task
 * as it is, unless the list is now empty: it wakes, runs nothing that is not due, and is armed
 * again for the new first. A timer set to fall due before the last one in the list (a clock
 * stepped back, a shorter bound) is not queued: it gets a task of its own.
 *
 * Every timer due when the task runs, and set before it ran, is run in that run, in the order
 * they were set. A callback runs after its timer left the list, so it may set another one (a
 * repeat) or cancel any; one it sets waits for a later run, so a clock stepped back while a
 * repeat re-arms cannot keep one run going.
 */
import type { ScheduledTask, Scheduler, TaskPriority } from './scheduler.js';

export class TimerQueue {
  #first: QueuedTimer | undefined;
  #last: QueuedTimer | undefined;
  #task: ScheduledTask | undefined;
  /** How many timers were ever set: each one's place, so a run knows which it found. */
  #set = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly priority: TaskPriority,
  ) {}

  /** Runs `callback` once the clock reaches `due` (ms since the epoch), unless cancelled. */
  at(due: number, callback: () => void): ScheduledTask {
    const last = this.#last;
    if (last !== undefined && due < last.due) {
      return this.scheduler.schedule(due - this.scheduler.now(), callback, this.priority);
    }
    this.#set += 1;
    const timer = new QueuedTimer(this, due, callback, last, this.#set);
    if (last === undefined) this.#first = timer;
    else last.next = timer;
    this.#last = timer;
    // For the first timer: a callback of this queue's run may set one behind others still due.
    if (this.#task === undefined) this.#arm((this.#first as QueuedTimer).due);
    return timer;
  }

  /** Takes `timer` out of the list (`QueuedTimer.cancel`). */
  unlink(timer: QueuedTimer): void {
    const { previous, next } = timer;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next === undefined) this.#last = previous;
    else next.previous = previous;
    timer.previous = undefined;
    timer.next = undefined;
    timer.queued = false;
    if (this.#first === undefined) {
      this.#task?.cancel();
      this.#task = undefined;
    }
  }

  #arm(due: number): void {
    this.#task = this.scheduler.schedule(due - this.scheduler.now(), this.#run, this.priority);
  }

  readonly #run = (): void => {
    this.#task = undefined;
    const now = this.scheduler.now();
    const setBefore = this.#set;
    try {
      for (
        let timer = this.#first;
        timer !== undefined && timer.due <= now && timer.place <= setBefore;
        timer = this.#first
      ) {
        this.unlink(timer);
        timer.callback();
      }
    } finally {
      const first = this.#first;
      if (first !== undefined && this.#task === undefined) this.#arm(first.due);
    }
  };
}

/** One timer of a `TimerQueue`, linked between the one set before it and the one after. */
class QueuedTimer implements ScheduledTask {
  next: QueuedTimer | undefined = undefined;
  queued = true;

  constructor(
    private readonly queue: TimerQueue,
    readonly due: number,
    readonly callback: () => void,
    public previous: QueuedTimer | undefined,
    /** The how-manieth timer its queue set. */
    readonly place: number,
  ) {}

  cancel(): void {
    if (this.queued) this.queue.unlink(this);
  }
}
