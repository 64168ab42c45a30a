import type { DriverContext } from '../context/context.js';
import { within } from '../events/signal.js';
import type { DriverParts } from './assemble.js';

export interface CloseResult {
  /** Keys released by the close. */
  readonly released: readonly string[];
  /** Keys still unreleased at the deadline (their locks age out or are handed over). */
  readonly unreleased: readonly string[];
}

/**
 * Shuts a driver down: cancels the loads in flight, releases every profile within
 * `deadlineMs`, leaves the handoff and frees the driver's name on this server.
 */
export async function closeDriver(
  context: DriverContext,
  { registry }: DriverParts,
  deadlineMs: number,
): Promise<CloseResult> {
  const pending = registry.sessions();
  const released: string[] = [];
  const releases = pending.map((session) =>
    session.release('shutdown').then(
      () => void released.push(session.key),
      () => undefined, // reported as profile.release-failed
    ),
  );
  const started = context.scheduler.now();
  await within(context.scheduler, Promise.all(releases), deadlineMs);
  // The journal clean-ups the releases and earlier loads started: none may land after close.
  const left = Math.max(0, deadlineMs - (context.scheduler.now() - started));
  await within(context.scheduler, context.background.drained(), left);
  const unreleased = pending.map((s) => s.key).filter((key) => !released.includes(key));
  if (unreleased.length > 0) {
    context.report({ type: 'driver.close-timeout', driver: context.name, keys: unreleased });
  }
  registry.end();
  await context.link.leave();
  context.identity.release();
  return { released, unreleased };
}
