/**
 * The one owner of `driver.health`: it watches the driver's own events for store failures
 * (a load's failed attempt, a failed save or release) and judges them by the health rule
 * (`rules/health.ts`), reporting `driver.health` each time the state changes. Nothing in the
 * flows calls it: a failure is counted where it is already reported.
 */
import type { EventPayload, ProfileEventPayload } from '../events/events.js';
import type { DataDriverError } from '../ports/errors.js';
import type { ScheduledTask, Scheduler } from '../ports/scheduler.js';
import { type HealthRule, isOutageFailure, judgeHealth } from '../rules/health.js';

/** `driver.health`: `ok`, or `critical` since a time, with the failure that made it so. */
export type DriverHealth =
  | { readonly state: 'ok' }
  | { readonly state: 'critical'; readonly since: number; readonly error: DataDriverError };

const OK: DriverHealth = Object.freeze({ state: 'ok' });

export class HealthMonitor {
  /** Failure times within the current window, oldest first. */
  readonly #failures: number[] = [];
  #health: DriverHealth = OK;
  #recheck: ScheduledTask | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly rule: HealthRule,
    private readonly driver: string,
    private readonly report: (event: EventPayload) => void,
  ) {}

  get current(): DriverHealth {
    return this.#health;
  }

  /**
   * Every profile event of the driver that is made passes here; only store failures count.
   * Events of success are made only when someone listens (`load.started`, `load.loaded`,
   * `profile.saved`, `profile.releasing`, `profile.released`): reading one here would need
   * them made always.
   */
  observe(event: ProfileEventPayload): void {
    switch (event.type) {
      case 'load.retrying':
      case 'load.failed':
      case 'profile.save-failed':
      case 'profile.release-failed':
        if (isOutageFailure(event.error.code)) this.#failed(event.error);
        return;
      default:
        return;
    }
  }

  #failed(error: DataDriverError): void {
    const now = this.scheduler.now();
    this.#failures.push(now);
    while (this.#failures.length > 0 && this.#failures[0]! <= now - this.rule.windowMs) {
      this.#failures.shift();
    }
    this.#judge(error);
  }

  #judge(error: DataDriverError | undefined): void {
    const now = this.scheduler.now();
    const state = judgeHealth(this.#health.state, this.#failures, now, this.rule);
    if (state !== this.#health.state) {
      this.#health = state === 'ok' || !error ? OK : { state, since: now, error };
      this.report({
        type: 'driver.health',
        driver: this.driver,
        state: this.#health.state,
        ...(this.#health.state === 'critical' ? { error: this.#health.error } : {}),
      });
    }
    if (this.#health.state === 'critical') {
      // Critical ends a whole window after the last failure, if no other comes: look then.
      this.#recheck?.cancel();
      const last = this.#failures[this.#failures.length - 1] ?? now;
      this.#recheck = this.scheduler.schedule(
        last + this.rule.windowMs - now,
        () => {
          this.#failures.length = 0;
          this.#judge(undefined);
        },
        'background',
      );
    }
  }
}
