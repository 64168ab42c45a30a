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
import type { ScheduledTask } from '../ports/scheduler.js';
import type { LoadReservation } from '../registry/reservation.js';
import { releaseOrphanedLock } from '../session/orphan-release.js';
import { type Bounded, BoundedCall } from './bounded-call.js';
import type { JoinDeadline } from './join-deadline.js';
import { type Attempt, type AttemptInput, attemptLoad } from './load-attempt.js';

/** What a load makes of an attempt, and of its failure: methods, called on their object. */
export interface AttemptThen<R> {
  attempted(attempt: Attempt): R | PromiseLike<R>;
  failed(error: unknown): R | PromiseLike<R>;
}

/**
 * One attempt, awaited until the hard end at most (then `Data.Timeout`), resolving with what
 * `then.attempted` makes of it, or `then.failed` of its error (each run in the race's own
 * callback: the caller's next step costs no promise). What they throw rejects as it is.
 */
export function boundedAttempt<R>(
  context: DriverContext,
  deadline: JoinDeadline,
  reservation: LoadReservation,
  input: AttemptInput,
  then: AttemptThen<R>,
): Promise<R> {
  return new StoreAttempt(context, deadline, reservation, input, then).start();
}

class StoreAttempt<R> extends BoundedCall<Attempt, R> {
  /** The attempt under way: a late one's lock is released once it settles. */
  readonly #attempt: Promise<Attempt>;

  constructor(
    private readonly context: DriverContext,
    private readonly deadline: JoinDeadline,
    private readonly reservation: LoadReservation,
    private readonly input: AttemptInput,
    private readonly then: AttemptThen<R>,
  ) {
    super();
    this.#attempt = attemptLoad(context, input);
  }

  start(): Promise<R> {
    return this.race(this.#attempt);
  }

  protected arm(late: () => void): ScheduledTask {
    return this.deadline.armHardEnd(late);
  }

  protected settle(bounded: Bounded<Attempt>): R | PromiseLike<R> {
    const { reservation, then } = this;
    if (!bounded.late) {
      // Its write may have landed and its answer been lost.
      if (bounded.value.kind === 'failed') reservation.mayHaveLeftLock();
      return then.attempted(bounded.value);
    }
    const { context, input } = this;
    try {
      releaseLateLock(context, input.key, reservation.token, input.heldHere, this.#attempt);
      reservation.mayHaveLeftLock(); // should that release fail, the driver's close tries again
    } catch (error) {
      return then.failed(error);
    }
    return then.failed(this.deadline.storeTimeout(input.key));
  }

  protected failed(error: unknown): R | PromiseLike<R> {
    return this.then.failed(error);
  }
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
