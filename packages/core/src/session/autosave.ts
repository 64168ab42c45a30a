import type { ScheduledTask, Scheduler } from '../ports/scheduler.js';

/**
 * One profile's autosave timer: every profile has its own, so a stuck write holds back only
 * that profile. Background: it never keeps a process alive.
 */
export class Autosave {
  #task: ScheduledTask | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly periodMs: number,
    private readonly tick: () => void,
  ) {}

  start(): void {
    if (this.#task || this.periodMs <= 0) return;
    this.#task = this.scheduler.repeat(this.periodMs, this.tick, 'background');
  }

  stop(): void {
    this.#task?.cancel();
    this.#task = undefined;
  }
}
