/**
 * What a waiting load knows of the holder's presence: its reads after each wake (a flagged
 * holder's; two empty reads a beat apart prove it stopped), when the next read may come, and
 * when the holder's key expires, where the presence tells (a crash read on time). One object a
 * wait, made at its first read or park: a key free in the store needs none of it.
 */
import type { DriverContext } from '../context/context.js';
import type { DistributiveOmit, LoadEventPayload } from '../events/events.js';
import type { DataDriverError } from '../ports/errors.js';
import {
  type LockInfo,
  type ParkFacts,
  type PresenceAnswer,
  type PresenceAnswerName,
  readsPresenceAfterWake,
} from '../rules/index.js';
import { Silence } from '../rules/silence.js';
import { HolderExpiry } from './holder-expiry.js';
import type { JoinDeadline } from './join-deadline.js';
import type { Attempt } from './load-attempt.js';

/** What the reads use of their load (`acquisition.ts`). */
export interface ReadingLoad {
  readonly context: DriverContext;
  readonly key: string;
  readonly deadline: JoinDeadline;
  /** `Data.Locked` for `holder`: a read late at the deadline of a stale lock's decision. */
  lockedError(holder: LockInfo): DataDriverError;
  /** Emits one of the load's events (`presence.read`), with its `loadId`. */
  emit(event: DistributiveOmit<LoadEventPayload, 'loadId'>): void;
}

export class HolderReads {
  /** The empty reads so far, for the proof of a stopped holder: made at the first read. */
  private silence: Silence | undefined;
  /** The lock a reply last woke this wait for (its token). */
  private repliedFor: string | undefined;
  /** True once an attempt after a reply found that same lock: replies stop skipping reads. */
  private replyProvedFalse = false;
  /** This wait's last presence read: whose, when it started, its answer, and if it proved the silence. */
  private lastRead:
    | { jobId: string; at: number; answer: PresenceAnswerName; proved: boolean }
    | undefined;
  /** When the holder's key expires, as the last read told: by `expiry`. */
  private expiryMade: HolderExpiry | undefined;

  constructor(private readonly load: ReadingLoad) {}

  get expiry(): HolderExpiry {
    this.expiryMade ??= new HolderExpiry();
    return this.expiryMade;
  }

  /** How long until a second empty read would prove the silence, once one was empty. */
  untilSecondRead(now: number): number | undefined {
    return this.silence?.untilSecondRead(now);
  }

  /** The last read, when the wake after this park reads the presence of that same holder. */
  lastReadBefore(attempt: Attempt, now: number): ParkFacts['lastRead'] {
    const read = this.lastRead;
    if (attempt.kind !== 'locked' || !read) return undefined;
    const { holder } = attempt;
    if (!this.readsPresenceOf(holder) || holder.jobId !== read.jobId) return undefined;
    return { answer: read.answer, agoMs: now - read.at, proved: read.proved };
  }

  /** Whether this wake reads presence (see `readsPresenceAfterWake`), noting the reply. */
  readsAfterWake(holder: LockInfo, replied: boolean): boolean {
    if (replied) {
      // Woken by a reply for a lock the last reply was for, and found still held.
      if (this.repliedFor === holder.token) this.replyProvedFalse = true;
      this.repliedFor = holder.token;
    }
    const now = this.load.context.scheduler.now();
    return readsPresenceAfterWake({
      replied,
      replyProvedFalse: this.replyProvedFalse,
      sinceLastReadMs: this.lastRead === undefined ? undefined : now - this.lastRead.at,
      minSpacingMs: this.load.context.link.timings.parkMinSeconds * 1000,
    });
  }

  /**
   * After each wake: a flagged holder's presence; two empty reads a beat apart free its lock.
   * A first unknown answer (a read that failed, and its retry a presence retry later) is read
   * again at once, and that read stands in for it: a failed read then costs the wait its
   * retry's quarter of a second, not a whole park, which at the wrong moment would push the
   * proof of a crash past the default wait. An unknown answer after an unknown one is not read
   * again: in a presence outage the reads keep their parks and do not turn into a stream.
   * True when this read proved the holder stopped (the second empty read a beat after the first).
   */
  async read(holder: LockInfo): Promise<boolean> {
    if (!this.readsPresenceOf(holder)) return false;
    const { scheduler } = this.load.context;
    const before = this.lastRead;
    const at = scheduler.now();
    let answer = await this.presenceOf(holder);
    const outage = before?.jobId === holder.jobId && before.answer === 'unknown';
    if (answer.alive === undefined && !outage && !this.load.deadline.passed) {
      answer = await this.presenceOf(holder);
    }
    this.silence ??= new Silence(this.load.context.link.timings.beatSeconds * 1000);
    const proved = this.silence.record(holder.jobId, answer.alive, scheduler.now());
    this.lastRead = { jobId: holder.jobId, at, answer: answerName(answer.alive), proved };
    return proved;
  }

  /** Whether a wake reads this holder's presence: handoff beats it and the lock is flagged. */
  private readsPresenceOf(holder: LockInfo): boolean {
    return this.load.context.link.beatsPresence && holder.presence === true;
  }

  /**
   * The holder's presence. A read that has not answered by the deadline is an unknown answer
   * after a wake; for a stale lock's decision (`failClosed`) it ends the join locked instead,
   * since an unknown answer would free the lock of a holder whose read was only slow.
   */
  async presenceOf(
    holder: LockInfo,
    { failClosed = false }: { failClosed?: boolean } = {},
  ): Promise<PresenceAnswer> {
    const { handoff } = this.load.context.link;
    const read = handoff
      ? await this.load.deadline.presenceCall(
          handoff.readPresence(holder.jobId, this.load.context.name),
        )
      : undefined;
    if (failClosed && read?.late === true) throw this.load.lockedError(holder);
    const answer = read === undefined || read.late ? undefined : read.value;
    const alive = answer?.alive;
    this.expiry.read(holder.jobId, alive, answer?.expiresInMs, this.load.context.scheduler.now());
    this.load.emit({
      type: 'presence.read',
      key: this.load.key,
      holder: holder.jobId,
      answer: answerName(alive),
    });
    return { jobId: holder.jobId, alive };
  }
}

function answerName(alive: boolean | undefined): PresenceAnswerName {
  return alive === undefined ? 'unknown' : alive ? 'alive' : 'stopped';
}
