/**
 * Taking the lock of a key held elsewhere: the cross-server half of a load. Each attempt is
 * one atomic update that runs the lock rules (`load-attempt.ts`); between attempts the load
 * parks on the holder's reply (0.5 s doubling to 2 s), repeats its release request every 4 s,
 * and reads the holder's presence after each wake, until the lock is taken or
 * `lockWaitSeconds` runs out.
 */
import type { DriverContext } from '../context/context.js';
import type { DistributiveOmit, LoadEventPayload } from '../events/events.js';
import { copyWith } from '../ports/copy-with.js';
import { DataDriverError, ErrorCode, rethrow } from '../ports/errors.js';
import type { Released } from '../registry/released-snapshots.js';
import type { HandedTake, LoadReservation } from '../registry/reservation.js';
import { type LockInfo, type ParkFacts, type PresenceAnswer, parkLength } from '../rules/index.js';
import { HolderReads } from './holder-reads.js';
import { JoinDeadline } from './join-deadline.js';
import { JoinerRequests } from './joiner-requests.js';
import { type AttemptThen, boundedAttempt } from './late-lock.js';
import type { Acquired, Attempt, AttemptInput } from './load-attempt.js';
import { lockedError } from './locked-errors.js';

/**
 * What a load makes of its take, and of its failure. A take at the first attempt (a key free in
 * the store) runs `taken` in the attempt's own callback: the load's next steps cost no promise.
 * What `taken` throws rejects as it is; `failed` gets every failure of the acquisition.
 */
export interface AcquiredThen<R> {
  taken(acquired: Acquired): R | PromiseLike<R>;
  failed(error: unknown): R | PromiseLike<R>;
}

/** A waiting load's attempts: the attempt itself, or its failure thrown. */
const AS_FOUND: AttemptThen<Attempt> = { attempted: (attempt) => attempt, failed: rethrow };

/**
 * Takes the lock of `key` for `reservation`, or fails (`Data.Locked` past the wait from `now`,
 * this server's clock when not given), resolving with what `then` makes of either.
 */
export function acquire<R>(
  context: DriverContext,
  key: string,
  reservation: LoadReservation,
  heldHere: (token: string) => boolean,
  /** The record this server last released, if any: the first write's `expected`, and its JSON. */
  released: Released | undefined,
  now: number | undefined,
  then: AcquiredThen<R>,
): Promise<R> {
  const deadline = JoinDeadline.startingAt(context, now ?? context.scheduler.now());
  return new Acquisition(context, key, reservation, heldHere, released, deadline, then).run();
}

/**
 * One load's acquisition, and the input of each of its attempts (`AttemptInput`): an attempt
 * reads this object's facts as they are when it starts, and they change only between attempts.
 */
class Acquisition<R> implements AttemptInput, AttemptThen<R> {
  /** A holder proven stopped by two empty presence reads a beat apart. */
  stealFrom: string | undefined;
  /** The record the holder's signed reply handed over, taken for the attempt under way. */
  handed: HandedTake | undefined;
  private parkMs: number;
  /** Made once the wait first finds a lock: a key free in the store needs none of these. */
  private requests: JoinerRequests | undefined;
  /** What the wait knows of the holder's presence: by `reads`, made at its first use. */
  private readsMade: HolderReads | undefined;
  private failures = 0;
  /** The key's store key, made once: a fresh string is hashed again by every map it meets. */
  readonly storeKey: string;

  constructor(
    readonly context: DriverContext,
    readonly key: string,
    private readonly reservation: LoadReservation,
    readonly heldHere: (token: string) => boolean,
    /** The record this server last released: the first attempt's `expected`; stale after it. */
    public released: Released | undefined,
    readonly deadline: JoinDeadline,
    /** What the load makes of its take, or of its failure. */
    private readonly then: AcquiredThen<R>,
  ) {
    this.parkMs = context.link.timings.parkMinSeconds * 1000;
    this.storeKey = context.keys.store(key);
  }

  private get reads(): HolderReads {
    this.readsMade ??= new HolderReads(this);
    return this.readsMade;
  }

  run(): Promise<R> {
    try {
      this.assertWanted();
    } catch (error) {
      return Promise.resolve().then(() => this.then.failed(error));
    }
    // The common case, a key free in the store, ends at the first attempt: no wait is set up.
    return this.attempt(this);
  }

  /** The first attempt's outcome: its take, or the wait that follows it. */
  attempted(first: Attempt): R | PromiseLike<R> {
    const { then } = this;
    if (first.kind === 'taken') return then.taken(first.acquired);
    return this.wait(first)
      .finally(() => this.requests?.stop())
      .then(
        (acquired) => then.taken(acquired),
        (error: unknown) => then.failed(error),
      );
  }

  /** The first attempt's failure. */
  failed(error: unknown): R | PromiseLike<R> {
    return this.then.failed(error);
  }

  private async wait(first: Attempt): Promise<Acquired> {
    let waitingOn: string | undefined;
    let found: Attempt | undefined = first;
    for (;;) {
      let attempt = found;
      found = undefined;
      if (attempt === undefined) {
        this.assertWanted();
        attempt = await this.attempt(AS_FOUND);
      }
      this.released = undefined; // stale after one attempt, whatever it found
      if (attempt.kind === 'taken') return attempt.acquired;
      if (attempt.kind === 'locked') {
        if (attempt.holder.jobId === this.context.identity.jobId) {
          throw this.lockedError(attempt.holder);
        }
        if (waitingOn !== attempt.holder.token) {
          waitingOn = attempt.holder.token;
          this.emit({
            type: 'load.waiting',
            key: this.key,
            reason: 'locked',
            holder: attempt.holder,
          });
        }
      }
      if (this.deadline.passed) {
        throw attempt.kind === 'locked' ? this.lockedError(attempt.holder) : attempt.error;
      }
      const parkMs = this.nextParkMs(attempt);
      if (attempt.kind === 'failed') {
        this.failures += 1;
        this.emit({
          type: 'load.retrying',
          key: this.key,
          error: attempt.error,
          attempt: this.failures,
          nextInMs: parkMs,
        });
      }
      // The request goes out, and the park runs from now, whatever the publish does: a slow or
      // hung bus must delay neither a reply's wake nor the presence reads after the park.
      if (attempt.kind === 'locked') this.joinerRequests().ask(attempt.holder);
      const replied = await this.reservation.reply.wait(this.context.scheduler, parkMs);
      // A reply means the holder let go: load again at once. Otherwise read its presence.
      if (attempt.kind === 'locked' && this.reads.readsAfterWake(attempt.holder, replied)) {
        // Two empty reads a beat apart prove the holder stopped: its lock is taken at once.
        if (await this.reads.read(attempt.holder)) this.stealFrom = attempt.holder.jobId;
      }
    }
  }

  /** One attempt, awaited until the hard end at most (then `Data.Timeout`), and `then`'s step. */
  private attempt<T>(then: AttemptThen<T>): Promise<T> {
    const { context, reservation } = this;
    this.handed = reservation.takeHanded(context.identity.jobId);
    return boundedAttempt(context, this.deadline, reservation, this, then);
  }

  /** The token this load writes. */
  get token(): string {
    return this.reservation.token;
  }

  /** An attempt's read of a stale flagged lock's holder: a read late at the deadline fails closed. */
  presenceOf(holder: LockInfo): Promise<PresenceAnswer> {
    return this.reads.presenceOf(holder, { failClosed: true });
  }

  /** How long the next park on the holder's reply lasts (`parkLength`); doubles the park after. */
  private nextParkMs(attempt: Attempt): number {
    const { scheduler, link } = this.context;
    const { reads } = this;
    const now = scheduler.now();
    const facts: ParkFacts = {
      doublingMs: this.parkMs,
      untilDeadlineMs: this.deadline.leftMs(),
      untilSecondReadMs: reads.untilSecondRead(now),
      lastRead: reads.lastReadBefore(attempt, now),
      minSpacingMs: link.timings.parkMinSeconds * 1000,
      untilExpiryMs:
        attempt.kind === 'locked'
          ? reads.expiry.untilExpiryMs(attempt.holder.jobId, now)
          : undefined,
      expiryReadSpacingMs: link.timings.presenceRetrySeconds * 1000,
    };
    const wait = parkLength(facts);
    reads.expiry.parked(wait < parkLength({ ...facts, untilExpiryMs: undefined }));
    this.parkMs = Math.min(this.parkMs * 2, link.timings.parkMaxSeconds * 1000);
    return wait;
  }

  private joinerRequests(): JoinerRequests {
    this.requests ??= new JoinerRequests(this.context, this.key, this.reservation);
    return this.requests;
  }

  private assertWanted(): void {
    if (this.reservation.cancelled()) {
      throw new DataDriverError(ErrorCode.Closed, `the load of ${this.key} was cancelled`);
    }
  }

  lockedError(holder: LockInfo): DataDriverError {
    return lockedError(this.key, holder, this.context.identity.jobId);
  }

  /** Emits one of this load's events, with its `loadId`. */
  emit(event: DistributiveOmit<LoadEventPayload, 'loadId'>): void {
    this.context.emit(copyWith(event, { loadId: this.reservation.loadId }));
  }
}
