import type { ScheduledTask, Scheduler, TaskPriority } from './ports/scheduler.js';

/** Real time and Node timers. Background tasks are unref'd: they never hold a process open. */
export class SystemScheduler implements Scheduler {
  now(): number {
    return Date.now();
  }

  schedule(
    delayMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    if (priority === 'background') timer.unref();
    return { cancel: () => clearTimeout(timer) };
  }

  repeat(
    intervalMs: number,
    callback: () => void,
    priority: TaskPriority = 'normal',
  ): ScheduledTask {
    const timer = setInterval(callback, Math.max(1, intervalMs));
    if (priority === 'background') timer.unref();
    return { cancel: () => clearInterval(timer) };
  }
}
