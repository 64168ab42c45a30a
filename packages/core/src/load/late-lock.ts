/**
 * A store attempt that outlasted its join's hard end (`join-deadline.ts`) may still land and
 * write this server's lock under a token no session holds. Once it settles, that lock is
 * released at once (as an orphaned own lock is), rather than left for other servers to wait
 * out: after a take, and after an attempt that failed, which may have failed after its write
 * landed (a lost response). The release's rule (`decideOrphanRelease`) writes only over a lock
 * under this load's token that no session here holds; finding none, it writes nothing.
 */
import type { DriverContext } from '../context/context.js';
import { describeError } from '../ports/errors.js';
import { releaseOrphanedLock } from '../session/orphan-release.js';
import type { Attempt } from './load-attempt.js';

export function releaseLateLock(
  context: DriverContext,
  key: string,
  token: string,
  heldHere: (token: string) => boolean,
  late: Promise<Attempt>,
): void {
  const release = late.then(async (attempt) => {
    if (attempt.kind === 'locked') return; // it found another's lock and wrote nothing
    const written = await releaseOrphanedLock(context, key, token, heldHere, 'late lock release');
    // Only a take is known to have left a lock; a failed attempt may not have written at all.
    if (!written.ok && attempt.kind === 'taken') {
      context.logger.warn(
        `could not release the lock of ${key} a timed-out load took late: ${describeError(written.error)}`,
      );
    }
  });
  // An attempt that threw was refused by its transform (a record it must not write): nothing
  // was written, so nothing is left to release.
  context.background.track(release.catch(() => undefined));
}
