/**
 * Taking the lock of a key held elsewhere: the cross-server half of a load. Each attempt is
 * one atomic update that runs the lock rules (`load-attempt.ts`); between attempts the load
 * parks on the holder's reply (0.5 s doubling to 2 s), repeats its release request every 4 s,
 * and reads the holder's presence after each wake, until the lock is taken or
 * `lockWaitSeconds` runs out.
 */
import type { DriverContext } from '../context/context.js';
import type { DistributiveOmit, LoadEventPayload, ProfileEventPayload } from '../events/events.js';
import { DataDriverError, ErrorCode, rethrow } from '../ports/errors.js';
import type { Released } from '../registry/released-snapshots.js';
import type { HandedTake, LoadReservation } from '../registry/reservation.js';
import {
  type LockInfo,
  type ParkFacts,
  type PresenceAnswer,
  type PresenceAnswerName,
  parkLength,
  readsPresenceAfterWake,
} from '../rules/index.js';
import { Silence } from '../rules/silence.js';
import { HolderExpiry } from './holder-expiry.js';
import { JoinDeadline } from './join-deadline.js';
import { JoinerRequests } from './joiner-requests.js';
import { boundedAttempt } from './late-lock.js';
import type { Acquired, Attempt, AttemptInput } from './load-attempt.js';
import { lockedError } from './locked-errors.js';

/**
 * What a load makes of its take, and of its failure. A take at the first attempt (a key free in
 * the store) runs `taken` in the attempt's own callback: the load's next steps cost no promise.
 * What `taken` throws rejects as it is; `failed` gets every failure of the acquisition.
 */
export interface AcquiredThen<R> {
  readonly taken: (acquired: Acquired) => R | PromiseLike<R>;
  readonly failed: (error: unknown) => R | PromiseLike<R>;
}

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
  return new Acquisition(context, key, reservation, heldHere, released, deadline).run(then);
}

/**
 * One load's acquisition, and the input of each of its attempts (`AttemptInput`): an attempt
 * reads this object's facts as they are when it starts, and they change only between attempts.
 */
class Acquisition implements AttemptInput {
  /** A holder proven stopped by two empty presence reads a beat apart. */
  stealFrom: string | undefined;
  /** The record the holder's signed reply handed over, taken for the attempt under way. */
  handed: HandedTake | undefined;
  /** Made once the wait first finds a lock: a key free in the store needs none of these. */
  private silence: Silence | undefined;
  private parkMs: number;
  private requests: JoinerRequests | undefined;
  /** The lock a reply last woke this wait for (its token). */
  private repliedFor: string | undefined;
  /** True once an attempt after a reply found that same lock: replies stop skipping reads. */
  private replyProvedFalse = false;
  /** This wait's last presence read: whose, when it started, its answer, and if it proved the silence. */
  private lastRead:
    | { jobId: string; at: number; answer: PresenceAnswerName; proved: boolean }
    | undefined;
  private failures = 0;
  /** The key's store key, made once: a fresh string is hashed again by every map it meets. */
  readonly storeKey: string;
  /** When the holder's key expires, as the last read told (a crash read on time): by `expiry`. */
  private expiryMade: HolderExpiry | undefined;

  constructor(
    private readonly context: DriverContext,
    readonly key: string,
    private readonly reservation: LoadReservation,
    readonly heldHere: (token: string) => boolean,
    /** The record this server last released: the first attempt's `expected`; stale after it. */
    public released: Released | undefined,
    private readonly deadline: JoinDeadline,
  ) {
    this.parkMs = context.link.timings.parkMinSeconds * 1000;
    this.storeKey = context.keys.store(key);
  }

  private get expiry(): HolderExpiry {
    this.expiryMade ??= new HolderExpiry();
    return this.expiryMade;
  }

  run<R>({ taken, failed }: AcquiredThen<R>): Promise<R> {
    try {
      this.assertWanted();
    } catch (error) {
      return Promise.resolve().then(() => failed(error));
    }
    // The common case, a key free in the store, ends at the first attempt: no wait is set up.
    return this.attempt(
      (first) =>
        first.kind === 'taken'
          ? taken(first.acquired)
          : this.wait(first)
              .finally(() => this.requests?.stop())
              .then(taken, failed),
      failed,
    );
  }

  private async wait(first: Attempt): Promise<Acquired> {
    let waitingOn: string | undefined;
    let found: Attempt | undefined = first;
    for (;;) {
      let attempt = found;
      found = undefined;
      if (attempt === undefined) {
        this.assertWanted();
        attempt = await this.attempt((found) => found, rethrow);
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
      if (attempt.kind === 'locked' && this.readsAfterWake(attempt.holder, replied)) {
        await this.readPresence(attempt.holder);
      }
    }
  }

  /** One attempt, awaited until the hard end at most (then `Data.Timeout`), and `then` or `failed`. */
  private attempt<R>(
    then: (attempt: Attempt) => R | PromiseLike<R>,
    failed: (error: unknown) => R | PromiseLike<R>,
  ): Promise<R> {
    const { context, reservation } = this;
    this.handed = reservation.takeHanded(context.identity.jobId);
    return boundedAttempt(context, this.deadline, reservation, this, then, failed);
  }

  /** The token this load writes. */
  get token(): string {
    return this.reservation.token;
  }

  /** An attempt's read of a stale flagged lock's holder: a read late at the deadline fails closed. */
  presenceOf(holder: LockInfo): Promise<PresenceAnswer> {
    return this.holderPresence(holder, { failClosed: true });
  }

  /** How long the next park on the holder's reply lasts (`parkLength`); doubles the park after. */
  private nextParkMs(attempt: Attempt): number {
    const { scheduler, link } = this.context;
    const now = scheduler.now();
    const facts: ParkFacts = {
      doublingMs: this.parkMs,
      untilDeadlineMs: this.deadline.leftMs(),
      untilSecondReadMs: this.silence?.untilSecondRead(now),
      lastRead: this.lastReadBefore(attempt, now),
      minSpacingMs: link.timings.parkMinSeconds * 1000,
      untilExpiryMs:
        attempt.kind === 'locked'
          ? this.expiry.untilExpiryMs(attempt.holder.jobId, now)
          : undefined,
      expiryReadSpacingMs: link.timings.presenceRetrySeconds * 1000,
    };
    const wait = parkLength(facts);
    this.expiry.parked(wait < parkLength({ ...facts, untilExpiryMs: undefined }));
    this.parkMs = Math.min(this.parkMs * 2, link.timings.parkMaxSeconds * 1000);
    return wait;
  }

  /** The last read, when the wake after this park reads the presence of that same holder. */
  private lastReadBefore(attempt: Attempt, now: number): ParkFacts['lastRead'] {
    const read = this.lastRead;
    if (attempt.kind !== 'locked' || !read) return undefined;
    const { holder } = attempt;
    if (!this.readsPresenceOf(holder) || holder.jobId !== read.jobId) return undefined;
    return { answer: read.answer, agoMs: now - read.at, proved: read.proved };
  }

  /** Whether this wake reads presence (see `readsPresenceAfterWake`), noting the reply. */
  private readsAfterWake(holder: LockInfo, replied: boolean): boolean {
    if (replied) {
      // Woken by a reply for a lock the last reply was for, and found still held.
      if (this.repliedFor === holder.token) this.replyProvedFalse = true;
      this.repliedFor = holder.token;
    }
    const now = this.context.scheduler.now();
    return readsPresenceAfterWake({
      replied,
      replyProvedFalse: this.replyProvedFalse,
      sinceLastReadMs: this.lastRead === undefined ? undefined : now - this.lastRead.at,
      minSpacingMs: this.context.link.timings.parkMinSeconds * 1000,
    });
  }

  /**
   * After each wake: a flagged holder's presence; two empty reads a beat apart free its lock.
   * A first unknown answer (a read that failed, and its retry a presence retry later) is read
   * again at once, and that read stands in for it: a failed read then costs the wait its
   * retry's quarter of a second, not a whole park, which at the wrong moment would push the
   * proof of a crash past the default wait. An unknown answer after an unknown one is not read
   * again: in a presence outage the reads keep their parks and do not turn into a stream.
   */
  private async readPresence(holder: LockInfo): Promise<void> {
    if (!this.readsPresenceOf(holder)) return;
    const { scheduler } = this.context;
    const before = this.lastRead;
    const at = scheduler.now();
    let answer = await this.holderPresence(holder);
    const outage = before?.jobId === holder.jobId && before.answer === 'unknown';
    if (answer.alive === undefined && !outage && !this.deadline.passed) {
      answer = await this.holderPresence(holder);
    }
    this.silence ??= new Silence(this.context.link.timings.beatSeconds * 1000);
    const proved = this.silence.record(holder.jobId, answer.alive, scheduler.now());
    this.lastRead = { jobId: holder.jobId, at, answer: answerName(answer.alive), proved };
    if (proved) this.stealFrom = holder.jobId;
  }

  /** Whether a wake reads this holder's presence: handoff beats it and the lock is flagged. */
  private readsPresenceOf(holder: LockInfo): boolean {
    return this.context.link.beatsPresence && holder.presence === true;
  }

  /**
   * The holder's presence. A read that has not answered by the deadline is an unknown answer
   * after a wake; for a stale lock's decision (`failClosed`) it ends the join locked instead,
   * since an unknown answer would free the lock of a holder whose read was only slow.
   */
  private async holderPresence(
    holder: LockInfo,
    { failClosed = false }: { failClosed?: boolean } = {},
  ): Promise<PresenceAnswer> {
    const { handoff } = this.context.link;
    const read = handoff
      ? await this.deadline.presenceCall(handoff.readPresence(holder.jobId, this.context.name))
      : undefined;
    if (failClosed && read?.late === true) throw this.lockedError(holder);
    const answer = read === undefined || read.late ? undefined : read.value;
    const alive = answer?.alive;
    this.expiry.read(holder.jobId, alive, answer?.expiresInMs, this.context.scheduler.now());
    this.emit({
      type: 'presence.read',
      key: this.key,
      holder: holder.jobId,
      answer: answerName(alive),
    });
    return { jobId: holder.jobId, alive };
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

  private lockedError(holder: LockInfo): DataDriverError {
    return lockedError(this.key, holder, this.context.identity.jobId);
  }

  /** Emits one of this load's events, with its `loadId`. */
  private emit(event: DistributiveOmit<LoadEventPayload, 'loadId'>): void {
    this.context.emit({ ...event, loadId: this.reservation.loadId } as ProfileEventPayload);
  }
}

function answerName(alive: boolean | undefined): PresenceAnswerName {
  return alive === undefined ? 'unknown' : alive ? 'alive' : 'stopped';
}
