/**
 * A simulated server's timers, which its crash stops. A crashed process runs nothing again:
 * no timer its driver or handoff armed fires after the crash (a load's deadline, a park, a
 * beat, an autosave), and none is armed. Its ports are frozen apart (`TestServer.crash`), so a
 * crashed server neither acts nor reports, as a killed process does.
 */
import type { ScheduledTask, Scheduler, TaskPriority } from '@datadriver/core/ports';

export class HaltingScheduler implements Scheduler {
  #halted = false;
  /** Timers armed and not yet fired or cancelled: what a crash cancels. */
  readonly #armed = new Set<ScheduledTask>();

  constructor(private readonly inner: Scheduler) {}

  now(): number {
    return this.inner.now();
  }

  schedule(delayMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask {
    return this.#arm((run) => this.inner.schedule(delayMs, run, priority), callback, true);
  }

  repeat(intervalMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask {
    return this.#arm((run) => this.inner.repeat(intervalMs, run, priority), callback, false);
  }

  /** The crash: every armed timer is cancelled, and later ones are never armed. */
  halt(): void {
    this.#halted = true;
    for (const task of this.#armed) task.cancel();
    this.#armed.clear();
  }

  #arm(
    arm: (run: () => void) => ScheduledTask,
    callback: () => void,
    once: boolean,
  ): ScheduledTask {
    if (this.#halted) return { cancel: () => undefined };
    let task: ScheduledTask | undefined;
    const handle: ScheduledTask = {
      cancel: () => {
        this.#armed.delete(handle);
        task?.cancel();
      },
    };
    task = arm(() => {
      if (this.#halted) return;
      if (once) this.#armed.delete(handle);
      callback();
    });
    this.#armed.add(handle);
    return handle;
  }
}
