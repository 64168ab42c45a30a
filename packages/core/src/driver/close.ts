import type { DriverContext } from '../context/context.js';
import { within } from '../events/signal.js';
import { describeError, nameSome } from '../ports/errors.js';
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
  // Beside the releases: once the loads in flight (each cancelled) have settled, the locks
  // loads here left in the store are cleared.
  const cleared = loadsSettled(context, registry).then(() => clearLeftLocks(context, registry));
  await within(context.scheduler, Promise.all([...releases, cleared]), deadlineMs);
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

/** Resolves once no load is in flight here, or once the close has ended without that. */
async function loadsSettled(context: DriverContext, registry: SessionRegistry): Promise<void> {
  while (registry.loading > 0 && !registry.ended) {
    await registry.waitForChange(context.scheduler, SETTLE_POLL_MS);
  }
}

/** How often the close looks again for loads in flight, besides each change it hears of. */
const SETTLE_POLL_MS = 1_000;
/** At most this many of the close's lock clearances in flight at once. */
const CLEARANCES_AT_ONCE = 16;

/**
 * Clears each lock this driver's loads may have left in the store without holding it: a lock a
 * holder handed to a load that had ended, a write whose answer was lost. Once this driver has
 * closed, nothing on this server answers a request for its keys, and while the server goes on
 * beating for its other drivers the player's next server would wait on it to the end. Nothing
 * is written once the close has ended (its deadline passed).
 */
async function clearLeftLocks(context: DriverContext, registry: SessionRegistry): Promise<void> {
  if (registry.ended) return;
  const heldHere = (token: string) => registry.holdsToken(token);
  const left = registry.takeLeftLocks();
  const failed: string[] = [];
  let error: unknown;
  for (let next = 0; next < left.length && !registry.ended; next += CLEARANCES_AT_ONCE) {
    const batch = left.slice(next, next + CLEARANCES_AT_ONCE);
    const results = await Promise.all(
      batch.map(([key, token]) =>
        releaseOrphanedLock(context, key, token, heldHere, 'left lock release'),
      ),
    );
    results.forEach((written, index) => {
      if (written.ok) return;
      failed.push(batch[index]![0]);
      error = written.error;
    });
  }
  if (failed.length > 0) {
    // One line for the close: a store down at shutdown would fail every one of them.
    context.logger.warn(
      `could not clear the locks loads of ${nameSome(failed, 10)} may have left; each lasts until this server's presence expires: ${describeError(error)}`,
    );
  }
}
