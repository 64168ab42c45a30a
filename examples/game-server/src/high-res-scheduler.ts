import { SystemScheduler } from '@datadriver/core/ports';

/**
 * Real timers with a sub-millisecond clock: event times (and so the steps of a hand-over)
 * resolve below Date.now()'s whole milliseconds. Still wall-clock based, so lock ages and
 * presence keep their meaning.
 */
export class HighResScheduler extends SystemScheduler {
  override now(): number {
    return performance.timeOrigin + performance.now();
  }
}
