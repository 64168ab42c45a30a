import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `atMs` after `start` (at once if that time has passed). */
export function until(start: number, atMs: number): Promise<void> {
  return sleep(Math.max(0, start + atMs - Date.now()));
}
