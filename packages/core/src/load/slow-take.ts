/**
 * A take confirmed before the game sees the profile, when the load ran slow after it. A server
 * frozen after its take (a stalled process, calls that hang) may wake after another server
 * lawfully took the lock: its presence lapsed and was read absent twice a beat apart, or its
 * lock aged out. A write would find that out; a load that has nothing more to write would not,
 * and would hand the game data another server has since changed. Every step of a load after
 * its take takes milliseconds, so past one beat since the lock time it wrote, the load reads the
 * record once and goes on only while the lock is still its own.
 */
import type { DriverContext } from '../context/context.js';
import { describeError } from '../ports/errors.js';
import { type LockInfo, parseRecord } from '../rules/index.js';

export type SlowTake =
  | { readonly held: true }
  | { readonly held: false; readonly holder?: LockInfo };

const HELD: SlowTake = { held: true };

/**
 * True when more than a beat has passed since this load decided its take (`takenAt`, on this
 * server's clock: the lock time it wrote, when it read a lock handed to it, whose time is the
 * holder's clock, or when it first asked for the lock a holder's reply handed it): confirm it.
 */
export function ranSlow(context: DriverContext, takenAt: number): boolean {
  const beatMs = context.settings.timings.beatSeconds * 1000;
  return context.scheduler.now() - takenAt > beatMs;
}

/** Whether the lock this load took (with `token`) is still its own; asked once it `ranSlow`. */
export async function confirmSlowTake(
  context: DriverContext,
  key: string,
  token: string,
): Promise<SlowTake> {
  let lock: LockInfo | undefined;
  try {
    lock = parseRecord(key, await context.store.get(context.keys.store(key)))?.meta.lock;
  } catch (error) {
    // Unknown: the load goes on, and its first write finds out.
    context.logger.warn(
      `could not confirm the lock of ${key} after a slow load: ${describeError(error)}`,
    );
    return HELD;
  }
  if (lock?.token === token && lock.jobId === context.identity.jobId) return HELD;
  return lock === undefined ? { held: false } : { held: false, holder: lock };
}
