/**
 * Taking the lock of a key held elsewhere: the cross-server half of a load. Each attempt is
 * one atomic update that runs the lock rules; between attempts the load parks on the holder's
 * reply (0.5 s doubling to 2 s), repeats its release request every 4 s, and reads the
 * holder's presence after each wake, until the lock is taken or `lockWaitSeconds` runs out.
 */
import { DataDriverError, ErrorCode, toDataDriverError } from './errors.js';
import type { ProfileEventPayload } from './events.js';
import type { Handoff } from './handoff.js';
import type { JsonObject } from './json.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Store } from './ports/store.js';
import {
  checkRecordSize,
  decideLoad,
  type LoadDecision,
  type LockInfo,
  type LockTimes,
  latestSchema,
  lockedRecord,
  type Migration,
  migrateData,
  type PresenceAnswer,
  type ProfileRecord,
  parseRecord,
  readsPresenceAfterWake,
  serializeData,
  settledData,
  type TakeReason,
  type TradeMarker,
  toStoreRecord,
} from './rules/index.js';
import { Silence } from './rules/silence.js';
import type { Signal } from './signal.js';
import type { HandoffTimings } from './timings.js';
import { type RecoveredTrade, recoverTrade } from './trade.js';

export interface AcquireRequest {
  readonly key: string;
  readonly storeKey: string;
  readonly token: string;
  readonly driverName: string;
  readonly jobId: string;
  readonly store: Store;
  readonly scheduler: Scheduler;
  /** Present when this server has handoff on. */
  readonly handoff: Handoff | undefined;
  readonly times: LockTimes;
  readonly timings: HandoffTimings;
  readonly lockWaitMs: number;
  readonly defaults: JsonObject;
  /** Applied to a record's data as the lock is taken; a newer schema is refused. */
  readonly migrations: readonly Migration[];
  /** Woken by the holder's reply. */
  readonly reply: Signal;
  journalKey(tradeId: string): string;
  heldHere(token: string): boolean;
  /** True once the load is no longer wanted (the player left, the driver closed). */
  cancelled(): boolean;
  emit(event: ProfileEventPayload): void;
}

export interface Acquired {
  readonly record: ProfileRecord;
  readonly reason: TakeReason;
  readonly from?: LockInfo;
  readonly recovered?: RecoveredTrade;
}

type Attempt =
  | { readonly kind: 'taken'; readonly acquired: Acquired }
  | { readonly kind: 'locked'; readonly holder: LockInfo }
  | { readonly kind: 'failed'; readonly error: DataDriverError };

/**
 * Store updates one attempt may run: a presence read and a trade recovery each re-run it once,
 * and a live holder may write a new marker meanwhile. More than this is a record that never
 * settles (a marker whose recovery never matches it), refused with a typed error.
 */
export const MAX_RUNS_PER_ATTEMPT = 8;

/** A transform's refusal as a typed error (a migration that threw is the record's problem). */
function refused(key: string, error: unknown): DataDriverError {
  return toDataDriverError(error, ErrorCode.InvalidRecord, `the record of ${key} cannot be loaded`);
}

export async function acquire(request: AcquireRequest): Promise<Acquired> {
  return new Acquisition(request).run();
}

class Acquisition {
  private readonly deadline: number;
  private readonly silence: Silence;
  private parkMs: number;
  private stealFrom: string | undefined;
  private lastRequest: { holder: string; token: string; at: number } | undefined;
  /** The lock a reply last woke this wait for (its token). */
  private repliedFor: string | undefined;
  /** True once an attempt after a reply found that same lock: replies stop skipping reads. */
  private replyProvedFalse = false;
  private lastReadAt: number | undefined;

  constructor(private readonly request: AcquireRequest) {
    this.deadline = request.scheduler.now() + request.lockWaitMs;
    this.silence = new Silence(request.timings.beatSeconds * 1000);
    this.parkMs = request.timings.parkMinSeconds * 1000;
  }

  async run(): Promise<Acquired> {
    let waitingOn: string | undefined;
    for (;;) {
      this.assertWanted();
      const attempt = await this.attempt();
      if (attempt.kind === 'taken') return attempt.acquired;
      if (attempt.kind === 'locked') {
        if (attempt.holder.jobId === this.request.jobId) throw this.lockedError(attempt.holder);
        if (waitingOn !== attempt.holder.token) {
          waitingOn = attempt.holder.token;
          this.emit({
            type: 'load.waiting',
            key: this.request.key,
            reason: 'locked',
            holder: attempt.holder,
          });
        }
      }
      const now = this.request.scheduler.now();
      if (now >= this.deadline) {
        throw attempt.kind === 'locked' ? this.lockedError(attempt.holder) : attempt.error;
      }
      // Park from now: a slow publish of the request must not stretch the wait.
      const parked = this.park();
      if (attempt.kind === 'locked') await this.askHolder(attempt.holder, now);
      const replied = await parked;
      // A reply means the holder let go: load again at once. Otherwise read its presence.
      if (attempt.kind === 'locked' && this.readsAfterWake(attempt.holder, replied)) {
        await this.readPresence(attempt.holder);
      }
    }
  }

  /** One atomic update running the load rules; presence and trade recovery re-run it. */
  private async attempt(): Promise<Attempt> {
    let presence: PresenceAnswer | undefined;
    let recovered: RecoveredTrade | undefined;
    for (let run = 1; ; run += 1) {
      // Each re-run follows new facts (a presence answer, a settled trade); a record that
      // keeps asking for more is refused, never looped on.
      if (run > MAX_RUNS_PER_ATTEMPT) throw this.unsettled();
      let decision: LoadDecision | undefined;
      let marker: TradeMarker | undefined;
      let stored: ProfileRecord | undefined;
      let refusal: unknown;
      try {
        const result = await this.request.store.update(this.request.storeKey, (current) => {
          try {
            const record = parseRecord(this.request.key, current);
            decision = decideLoad(record, this.context(presence));
            marker = record?.meta.trade;
            if (decision.kind !== 'take') return undefined;
            if (marker && recovered?.trade !== marker.id) return undefined; // settle it first
            const taken = toStoreRecord(this.taken(record, marker, recovered));
            return checkRecordSize(this.request.key, taken, this.request.store.maxRecordBytes);
          } catch (error) {
            refusal = error;
            throw error;
          }
        });
        stored = parseRecord(this.request.key, result);
      } catch (error) {
        // The transform is pure: what it refused (a record this server must not load, a newer
        // schema, data a migration broke) it would refuse again. Thrown at once, not retried.
        if (refusal !== undefined && error === refusal) throw refused(this.request.key, error);
        if (DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
        return {
          kind: 'failed',
          error: toDataDriverError(
            error,
            ErrorCode.BackendFailed,
            `load of ${this.request.key} failed`,
          ),
        };
      }
      const made: LoadDecision | undefined = decision;
      if (made === undefined) throw new Error('the store did not run the load transform');
      if (made.kind === 'locked') return { kind: 'locked', holder: made.holder };
      if (made.kind === 'read-presence') {
        presence = await this.presenceOf(made.holder);
        continue;
      }
      const pending: TradeMarker | undefined = marker;
      if (pending && recovered?.trade !== pending.id) {
        recovered = await recoverTrade(
          this.request.store,
          this.request.journalKey(pending.id),
          pending,
          this.request.scheduler.now(),
        );
        continue;
      }
      if (stored === undefined) throw new Error('the store returned no record after a load write');
      const acquired: Acquired = {
        record: stored,
        reason: made.reason,
        ...(made.from ? { from: made.from } : {}),
        ...(recovered ? { recovered } : {}),
      };
      return { kind: 'taken', acquired };
    }
  }

  /** The record a take writes: the trade settled, the data migrated, this server's lock. */
  private taken(
    record: ProfileRecord | undefined,
    marker: TradeMarker | undefined,
    recovered: RecoveredTrade | undefined,
  ): ProfileRecord {
    const { key, migrations, defaults } = this.request;
    if (record === undefined) {
      return lockedRecord(undefined, defaults, this.writer(), { schema: latestSchema(migrations) });
    }
    const settled = marker ? settledData(record, key, marker, recovered?.journal) : record.data;
    const migrated = migrateData(key, settled, record.meta.schema ?? 0, migrations);
    // What a migration returns is written now: it must survive JSON like any save.
    const data =
      migrated === settled ? settled : (JSON.parse(serializeData(key, migrated)) as JsonObject);
    return lockedRecord(record, data, this.writer(), { schema: latestSchema(migrations) });
  }

  private context(presence: PresenceAnswer | undefined) {
    const { request } = this;
    return {
      jobId: request.jobId,
      token: request.token,
      now: request.scheduler.now(),
      lockTtlSeconds: request.times.lockTtlSeconds,
      lockSkewSeconds: request.times.lockSkewSeconds,
      handoff: request.handoff !== undefined,
      heldHere: request.heldHere,
      ...(this.stealFrom === undefined ? {} : { stealFrom: this.stealFrom }),
      ...(presence === undefined ? {} : { holderPresence: presence }),
    };
  }

  private writer() {
    return {
      jobId: this.request.jobId,
      token: this.request.token,
      now: this.request.scheduler.now(),
      presence: this.request.handoff !== undefined,
    };
  }

  /** Sends the release request on a new holder, and again every `requestRepeatSeconds`. */
  private async askHolder(holder: LockInfo, now: number): Promise<void> {
    const { handoff } = this.request;
    if (!handoff) return;
    const last = this.lastRequest;
    const repeatMs = this.request.timings.requestRepeatSeconds * 1000;
    const fresh = !last || last.holder !== holder.jobId || last.token !== holder.token;
    if (!fresh && now - last.at < repeatMs) return;
    this.lastRequest = { holder: holder.jobId, token: holder.token, at: now };
    this.emit({
      type: 'handoff.request.sent',
      key: this.request.key,
      holder: holder.jobId,
      token: holder.token,
    });
    // A lost request costs only time: the wait repeats it and reads presence meanwhile.
    await handoff
      .request(this.request.driverName, this.request.key, holder.jobId, holder.token)
      .catch(() => undefined);
  }

  /** Parks on the holder's reply: 0.5 s doubling to 2 s, never past the deadline. */
  private async park(): Promise<boolean> {
    const { scheduler } = this.request;
    const now = scheduler.now();
    let wait = Math.min(this.parkMs, this.deadline - now);
    const untilSecond = this.silence.untilSecondRead(now);
    if (untilSecond !== undefined && untilSecond > 0) wait = Math.min(wait, untilSecond);
    this.parkMs = Math.min(this.parkMs * 2, this.request.timings.parkMaxSeconds * 1000);
    return this.request.reply.wait(scheduler, Math.max(0, wait));
  }

  /** Whether this wake reads presence (see `readsPresenceAfterWake`), noting the reply. */
  private readsAfterWake(holder: LockInfo, replied: boolean): boolean {
    if (replied) {
      // Woken by a reply for a lock the last reply was for, and found still held.
      if (this.repliedFor === holder.token) this.replyProvedFalse = true;
      this.repliedFor = holder.token;
    }
    const now = this.request.scheduler.now();
    return readsPresenceAfterWake({
      replied,
      replyProvedFalse: this.replyProvedFalse,
      sinceLastReadMs: this.lastReadAt === undefined ? undefined : now - this.lastReadAt,
      minSpacingMs: this.request.timings.parkMinSeconds * 1000,
    });
  }

  /** After each wake: a flagged holder's presence; two empty reads a beat apart free its lock. */
  private async readPresence(holder: LockInfo): Promise<void> {
    if (!this.request.handoff || !holder.presence) return;
    this.lastReadAt = this.request.scheduler.now();
    const answer = await this.presenceOf(holder);
    if (this.silence.record(holder.jobId, answer.alive, this.request.scheduler.now())) {
      this.stealFrom = holder.jobId;
    }
  }

  private async presenceOf(holder: LockInfo): Promise<PresenceAnswer> {
    const alive = this.request.handoff
      ? await this.request.handoff.isAlive(holder.jobId)
      : undefined;
    const answer = alive === undefined ? 'unknown' : alive ? 'alive' : 'stopped';
    this.emit({ type: 'presence.read', key: this.request.key, holder: holder.jobId, answer });
    return { jobId: holder.jobId, alive };
  }

  private assertWanted(): void {
    if (this.request.cancelled()) {
      throw new DataDriverError(ErrorCode.Closed, `the load of ${this.request.key} was cancelled`);
    }
  }

  private unsettled(): DataDriverError {
    return new DataDriverError(
      ErrorCode.Conflict,
      `the load of ${this.request.key} re-read its record ${MAX_RUNS_PER_ATTEMPT} times without settling it (presence reads, trade recoveries); nothing was written`,
      { details: { key: this.request.key } },
    );
  }

  private lockedError(holder: LockInfo): DataDriverError {
    const where = holder.jobId === this.request.jobId ? 'this server' : 'another server';
    return new DataDriverError(
      ErrorCode.Locked,
      `profile is locked by ${where} (key ${this.request.key}, server ${holder.jobId}, token ${holder.token}, presence ${holder.presence})`,
      { details: { key: this.request.key, holder } },
    );
  }

  private emit(event: ProfileEventPayload): void {
    this.request.emit(event);
  }
}
