/**
 * One load attempt bounded by its join's hard end (`join-deadline.ts`), and the lock it may
 * leave in the store without the load holding it. An attempt that outlasted the hard end may
 * still land and write this server's lock under a token no session holds. Once it settles, that
 * lock is released at once (as an orphaned own lock is), rather than left for other servers to
 * wait out: after a take, and after an attempt that failed, which may have failed after its
 * write landed (a lost response). The release's rule (`decideOrphanRelease`) writes only over a
 * lock under this load's token that no session here holds; finding none, it writes nothing.
 * Such an attempt, and any failed one, is noted on the load's reservation, so the driver's close
 * clears what may be left (`close.ts`).
 */
import type { DriverContext } from '../context/context.js';
import { describeError } from '../ports/errors.js';
import type { LoadReservation } from '../registry/reservation.js';
import { releaseOrphanedLock } from '../session/orphan-release.js';
import type { JoinDeadline } from './join-deadline.js';
import { type Attempt, type AttemptInput, attemptLoad } from './load-attempt.js';

/**
 * One attempt, awaited until the hard end at most (then `Data.Timeout`), resolving with what
 * `then` makes of it, or `failed` of its error (each run in the race's own callback: the
 * caller's next step costs no promise). What `then` throws rejects as it is.
 */
export function boundedAttempt<R>(
  context: DriverContext,
  deadline: JoinDeadline,
  reservation: LoadReservation,
  input: AttemptInput,
  then: (attempt: Attempt) => R | PromiseLike<R>,
  failed: (error: unknown) => R | PromiseLike<R>,
): Promise<R> {
  const attempt = attemptLoad(context, input);
  return deadline.storeCall(
    attempt,
    (bounded) => {
      if (!bounded.late) {
        // Its write may have landed and its answer been lost.
        if (bounded.value.kind === 'failed') reservation.mayHaveLeftLock();
        return then(bounded.value);
      }
      try {
        releaseLateLock(context, input.key, reservation.token, input.heldHere, attempt);
        reservation.mayHaveLeftLock(); // should that release fail, the driver's close tries again
      } catch (error) {
        return failed(error);
      }
      return failed(deadline.storeTimeout(input.key));
    },
    failed,
  );
}

function releaseLateLock(
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
