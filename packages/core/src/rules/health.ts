/**
 * When a driver calls its store critical (`driver.health`): a run of backend failures within a
 * window, the signal a game uses to show a banner or pause purchases. Pure: the monitor
 * (`context/health-monitor.ts`) feeds it failure times from the event stream.
 */
import { ErrorCode } from '../ports/errors.js';

export interface HealthRule {
  /** This many store failures within `windowMs` make the state critical. */
  readonly failures: number;
  /** The window, and how long without a failure before critical ends. */
  readonly windowMs: number;
}

/** Five failures in two minutes, two minutes without one to recover: ProfileService's rule. */
export const DEFAULT_HEALTH_RULE: HealthRule = { failures: 5, windowMs: 120_000 };

export type HealthState = 'ok' | 'critical';

/**
 * The failures that say the backend is unwell: it failed, could not be reached, throttled, did
 * not answer in time or is not set up. A lost lock, a refused record or bad data is not an
 * outage, and neither is contention (`Data.Conflict`).
 */
export function isOutageFailure(code: string): boolean {
  return (
    code === ErrorCode.BackendFailed ||
    code === ErrorCode.Unavailable ||
    code === ErrorCode.Throttled ||
    code === ErrorCode.Timeout ||
    code === ErrorCode.Misconfigured
  );
}

/**
 * The state at `now`, given the failure times seen so far (ascending, ms): `ok` turns critical
 * once `rule.failures` fall within the window ending now; critical turns `ok` once a whole
 * window passes with none.
 */
export function judgeHealth(
  current: HealthState,
  failureTimes: readonly number[],
  now: number,
  rule: HealthRule,
): HealthState {
  const recent = failureTimes.filter((time) => time > now - rule.windowMs).length;
  if (current === 'ok') return recent >= rule.failures ? 'critical' : 'ok';
  return recent === 0 ? 'ok' : 'critical';
}
