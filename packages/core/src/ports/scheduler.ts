/**
 * `background` work (presence beats, autosaves) must never keep a process alive on its own
 * and runs after `normal` work that falls due at the same instant.
 */
export type TaskPriority = 'normal' | 'background';

export interface ScheduledTask {
  /** Stops the task; a callback already running finishes. Idempotent. */
  cancel(): void;
}

/**
 * Time and timers. Real timers in production (`SystemScheduler`), a `VirtualClock` in tests,
 * so every wait in DataDriver can be asserted to the millisecond without sleeping.
 */
export interface Scheduler {
  /** Milliseconds since the Unix epoch, as this server sees it. */
  now(): number;
  /** Runs `callback` once, `delayMs` from now. */
  schedule(delayMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask;
  /** Runs `callback` every `intervalMs` (at least 1 ms), the first time `intervalMs` from now. */
  repeat(intervalMs: number, callback: () => void, priority?: TaskPriority): ScheduledTask;
}

/** A repeat's interval, shared by every scheduler: at least 1 ms, so a 0 never spins. */
export function repeatIntervalMs(intervalMs: number): number {
  return Math.max(1, intervalMs);
}
