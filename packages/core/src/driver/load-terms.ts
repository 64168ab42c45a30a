/**
 * A direct load's terms (`LoadHow`) from `load`'s options, checked: a refused option rejects
 * the load before it starts.
 */
import { checkSignal } from '../load/abortable.js';
import type { LoadHow } from '../load/load-steps.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';

/** A direct load is wanted until its caller's signal aborts (`LoadHow.cancelled`). */
const NEVER_CANCELLED = (): boolean => false;

/**
 * The terms of a load that waits `handoffSeconds` (else `localHandoffMs`, else 0) for the same
 * key on this server, ends when `signal` aborts, and runs a message pass unless `messages` is
 * false (a support load).
 */
export function loadTerms(
  localHandoffMs: number | undefined,
  handoffSeconds: number | undefined,
  signal: AbortSignal | undefined,
  messages: boolean,
): LoadHow {
  const localWaitMs =
    handoffSeconds === undefined
      ? (localHandoffMs ?? 0)
      : checkSeconds('handoffSeconds', handoffSeconds) * 1000;
  if (signal !== undefined) checkSignal(signal);
  return { localWaitMs, cancelled: NEVER_CANCELLED, messages, signal };
}

export function checkSeconds(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new DataDriverError(
      ErrorCode.InvalidArgument,
      `${name} must be a non-negative number of seconds`,
    );
  }
  return value;
}
