import type { Scheduler, TaskPriority } from '../ports/scheduler.js';

/**
 * A wake-up call for event-driven waits: waiters park until `notify()` or their timeout,
 * then re-check their own condition. A notify that finds no waiter is kept for the next
 * wait, so a wake that arrives just before its waiter parks (a reply delivered before the
 * request's publish returned) is not lost.
 */
export class Signal {
  /** Made on the first wait: most signals (a load's reply) are never waited on. */
  private waiters: Set<(woken: boolean) => void> | undefined;
  private pending = false;

  /** Wakes every current waiter with `true`, or the next one when none waits now. */
  notify(): void {
    if (this.waiters === undefined || this.waiters.size === 0) {
      this.pending = true;
      return;
    }
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake(true);
  }

  /** Resolves `true` when notified, `false` when `timeoutMs` passes first. */
  wait(scheduler: Scheduler, timeoutMs: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    this.waiters ??= new Set();
    const waiters = this.waiters;
    return new Promise((resolve) => {
      const task = scheduler.schedule(Math.max(0, timeoutMs), () => {
        waiters.delete(wake);
        resolve(false);
      });
      const wake = (woken: boolean): void => {
        task.cancel();
        resolve(woken);
      };
      waiters.add(wake);
    });
  }
}

/** Resolves after `ms`; a `background` sleep never holds a process open on its own. */
export function sleep(
  scheduler: Scheduler,
  ms: number,
  priority: TaskPriority = 'normal',
): Promise<void> {
  return new Promise((resolve) => scheduler.schedule(ms, resolve, priority));
}

/**
 * Resolves `true` when `work` settles within `timeoutMs`, `false` when the time runs out
 * first. The timer is cancelled once the work settles, so it never holds a process open.
 */
export function within(
  scheduler: Scheduler,
  work: Promise<unknown>,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = scheduler.schedule(timeoutMs, () => resolve(false));
    const done = (): void => {
      timer.cancel();
      resolve(true);
    };
    work.then(done, done);
  });
}

/** `call()`, and once more after `delayMs` if it rejects (a blip of the backend). */
export async function retryOnce<T>(
  scheduler: Scheduler,
  delayMs: number,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch {
    await sleep(scheduler, delayMs);
    return call();
  }
}
