import { repeatIntervalMs, type ScheduledTask, type Scheduler } from '../ports/scheduler.js';
import type { TimerQueue } from '../ports/timer-queue.js';
import { nextAutosaveDue } from '../rules/index.js';

/**
 * One profile's autosave: every period, from its start, on the driver's queue of autosave
 * timers (one background task for every profile, which never keeps a process alive). The tick
 * only starts a save, so a stuck write holds back only its own profile.
 */
export class Autosave {
  #timer: ScheduledTask | undefined;
  /** When the armed autosave falls due. */
  #due = 0;

  constructor(
    private readonly timers: TimerQueue,
    private readonly scheduler: Scheduler,
    private readonly periodMs: number,
    /** Whose tick it is (an object, not a closure: one object fewer a session). */
    private readonly owner: { autosaveDue(): void },
  ) {}

  start(): void {
    if (this.#timer || this.periodMs <= 0) return;
    this.#arm(this.scheduler.now() + repeatIntervalMs(this.periodMs));
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(due: number): void {
    this.#due = due;
    this.#timer = this.timers.at(due, this.#run);
  }

  // Armed again before the tick runs, as a repeat is: a stop() from inside the tick disarms it.
  readonly #run = (): void => {
    this.#arm(nextAutosaveDue(this.#due, this.scheduler.now(), repeatIntervalMs(this.periodMs)));
    this.owner.autosaveDue();
  };
}
