import type { DriverContext } from '../context/context.js';
import { within } from '../events/signal.js';
import { describeError, nameSome } from '../ports/errors.js';
import type { LeftLock, SessionRegistry } from '../registry/registry.js';
import { handOverAskWindowMs } from '../rules/index.js';
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
 * beating for its other drivers the player's next server would wait on it to the end. A holder
 * still honours a load's ask to be handed the lock for a while after it (`handOverAskWindowMs`),
 * so the keys of loads that asked lately are cleared again once that window has passed, if the
 * close lasts that long. Nothing is written once the close has ended (its deadline passed).
 */
async function clearLeftLocks(context: DriverContext, registry: SessionRegistry): Promise<void> {
  if (registry.ended) return;
  const left = registry.takeLeftLocks();
  const failures = new Map<string, { key: string; error: unknown }>();
  await clearLocks(context, registry, left, failures);
  const windowMs = handOverAskWindowMs(context.settings.timings);
  const late = left.filter(
    ({ askedAt }) => askedAt !== undefined && askedAt + windowMs > context.scheduler.now(),
  );
  if (late.length > 0) {
    const windowEnd = Math.max(...late.map(({ askedAt }) => askedAt! + windowMs));
    if (await reached(context, registry, windowEnd))
      await clearLocks(context, registry, late, failures);
  }
  if (failures.size > 0) {
    // One line for the close: a store down at shutdown would fail every one of them.
    const failed = [...failures.values()];
    context.logger.warn(
      `could not clear the locks loads of ${nameSome(
        failed.map(({ key }) => key),
        10,
      )} may have left; each lasts until this server's presence expires: ${describeError(failed.at(-1)!.error)}`,
    );
  }
}

/** Clears `locks`, a batch at a time, noting in `failures` (by token) those it could not. */
async function clearLocks(
  context: DriverContext,
  registry: SessionRegistry,
  locks: readonly LeftLock[],
  failures: Map<string, { key: string; error: unknown }>,
): Promise<void> {
  for (let next = 0; next < locks.length && !registry.ended; next += CLEARANCES_AT_ONCE) {
    const batch = locks.slice(next, next + CLEARANCES_AT_ONCE);
    const results = await Promise.all(
      batch.map(({ key, token }) => {
        const heldHere = (held: string) => registry.holdsToken(held, key);
        return releaseOrphanedLock(context, key, token, heldHere, 'left lock release');
      }),
    );
    results.forEach((written, index) => {
      const { key, token } = batch[index]!;
      if (written.ok) failures.delete(token);
      else failures.set(token, { key, error: written.error });
    });
  }
}

/** Resolves true once this server's clock reaches `at`, false if the close ends first. */
async function reached(
  context: DriverContext,
  registry: SessionRegistry,
  at: number,
): Promise<boolean> {
  while (!registry.ended) {
    const leftMs = at - context.scheduler.now();
    if (leftMs <= 0) return true;
    await registry.waitForChange(context.scheduler, leftMs);
  }
  return false;
}
