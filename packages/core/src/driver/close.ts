import type { DriverContext } from '../context/context.js';
import { within } from '../events/signal.js';
import { describeError } from '../ports/errors.js';
import type { SessionRegistry } from '../registry/registry.js';
import { releaseOrphanedLock } from '../session/orphan-release.js';
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
  const left = () => Math.max(0, deadlineMs - (context.scheduler.now() - started));
  await within(context.scheduler, context.background.drained(), left());
  await within(context.scheduler, clearLeftLocks(context, registry), left());
  const unreleased = pending.map((s) => s.key).filter((key) => !released.includes(key));
  if (unreleased.length > 0) {
    context.report({ type: 'driver.close-timeout', driver: context.name, keys: unreleased });
  }
  registry.end();
  await context.link.leave();
  context.identity.release();
  return { released, unreleased };
}

/**
 * Clears each lock this driver's loads may have left in the store without holding it: a lock a
 * holder handed to a load that had ended, a write whose answer was lost. Once this driver has
 * closed, nothing on this server answers a request for its keys, and while the server goes on
 * beating for its other drivers the player's next server would wait on it to the end.
 */
async function clearLeftLocks(context: DriverContext, registry: SessionRegistry): Promise<void> {
  const heldHere = (token: string) => registry.holdsToken(token);
  await Promise.all(
    registry.takeLeftLocks().map(async ([key, token]) => {
      const written = await releaseOrphanedLock(context, key, token, heldHere, 'left lock release');
      if (!written.ok) {
        context.logger.warn(
          `could not clear a lock a load of ${key} may have left: ${describeError(written.error)}`,
        );
      }
    }),
  );
}
