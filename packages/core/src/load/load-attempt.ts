/**
 * One attempt of a load: one atomic update whose transform runs the load rules. A presence
 * read and a trade recovery each re-run it with the new fact; a record that keeps asking for
 * more is refused, never looped on.
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { withDataJson } from '../ports/record-json.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { HandedTake } from '../registry/reservation.js';
import {
  decideLoad,
  fillDefaults,
  handedTakeWrites,
  type LoadDecision,
  type LockInfo,
  markerGate,
  type PresenceAnswer,
  type ProfileRecord,
  type TakeReason,
  type TradeMarker,
} from '../rules/index.js';
import { GuardedUpdate, type Written } from '../session/guarded-write.js';
import { type RecoveredTrade, recoverTrade } from '../trade/journal.js';
import { HandedStore } from './handed-store.js';
import { LoadCheck } from './load-check.js';
import { loadContext, type TakeInput, takenJson, takenRecord } from './taken-record.js';

/**
 * Store updates one attempt may run: a presence read and a trade recovery each re-run it once,
 * and a live holder may write a new marker meanwhile. More than this is a record that never
 * settles (a marker whose recovery never matches it), refused with a typed error.
 */
export const MAX_RUNS_PER_ATTEMPT = 8;

export interface Acquired {
  readonly record: ProfileRecord;
  /** The store key the load wrote: the session's writes use it too. */
  readonly storeKey: string;
  /** The store's snapshot of the record written: the session's first write needs no read. */
  readonly snapshot: StoreSnapshot | undefined;
  /** `JSON.stringify(record.data)`, when the take wrote it: the session's first snapshot. */
  readonly dataJson?: string | undefined;
  readonly reason: TakeReason;
  readonly from?: LockInfo | undefined;
  readonly recovered?: RecoveredTrade | undefined;
  /**
   * When the take was decided, on this server's clock: the time its lock carries, or, for a
   * lock handed over (stamped by the holder's clock), when this load read it, or, taken from
   * the holder's reply with no read, when this load first asked for it (`slow-take.ts`).
   */
  readonly takenAt: number;
}

export type Attempt =
  | { readonly kind: 'taken'; readonly acquired: Acquired }
  | { readonly kind: 'locked'; readonly holder: LockInfo }
  | { readonly kind: 'failed'; readonly error: DataDriverError };

export interface AttemptInput extends TakeInput {
  /** Its store key, made once for the load: every attempt and the session's writes use it. */
  readonly storeKey: string;
  /** The holder's presence, read when a stale flagged lock asks for it. */
  presenceOf(holder: LockInfo): Promise<PresenceAnswer>;
  /**
   * The record the holder's signed reply handed to this load (`handedSnapshot`): the first run
   * decides on it, and reads nothing when the lock is this load's already (`HandedStore`).
   * `since`: when this load first asked for it, on this server's clock; the holder's write
   * came after, so a take on it with no read is as old as that (`Acquired.takenAt`).
   */
  readonly handed?: HandedTake | undefined;
}

/** The load rules' decision on a record, and the trade marker it carries. */
interface LoadRunDecision {
  readonly load: LoadDecision;
  readonly marker: TradeMarker | undefined;
}

/**
 * One atomic update running the load rules; presence and trade recovery re-run it. A promise
 * chain, not an async function: a run is the store's promise and the write's.
 */
export function attemptLoad(context: DriverContext, input: AttemptInput): Promise<Attempt> {
  return new LoadAttempt(context, input).run(1);
}

/**
 * An attempt's runs, as the write each run makes (its `decide` and `next`) and what each run's
 * outcome leads to. A class, not closures: one object an attempt. Its runs come one after
 * another, so each run's facts are fields, set as it starts.
 */
class LoadAttempt extends GuardedUpdate<LoadRunDecision, Attempt> {
  readonly key: string;
  readonly storeKey: string;
  readonly what = 'load';
  /** The holder's presence, once a run asked for it. */
  #presence: PresenceAnswer | undefined;
  /** The trade a run's recovery read, once one asked for it. */
  #recovered: RecoveredTrade | undefined;
  readonly #check: LoadCheck | undefined;
  /** True when the run's take waits for an asynchronous schema's verdict. */
  #checking = false;
  /** When the transform's run decided: its lock, if it takes one, is stamped the same. */
  #decidedAt = 0;
  /** The JSON of the data the transform's run wrote, if it wrote (`takenJson`). */
  #dataJson: string | undefined;
  #run = 0;
  /** The run's settled trade (the recovery's, from the run before it). */
  #settledTrade: RecoveredTrade['trade'] | undefined;
  /** The run's handed record: the first run's only. */
  #handed: HandedTake | undefined;

  constructor(
    private readonly context: DriverContext,
    private readonly input: AttemptInput,
  ) {
    super();
    this.key = input.key;
    this.storeKey = input.storeKey;
    const { schema } = context.settings;
    this.#check = schema === undefined ? undefined : new LoadCheck(schema, input.key);
  }

  run(run: number): Promise<Attempt> {
    if (run > MAX_RUNS_PER_ATTEMPT) return Promise.reject(unsettled(this.key));
    const { context, input } = this;
    this.#run = run;
    this.#settledTrade = this.#recovered?.trade;
    const first = run === 1;
    const handed = first ? input.handed : undefined;
    this.#handed = handed;
    const expected = first ? input.released?.snapshot : undefined;
    if (handed === undefined) return this.update(context, expected);
    const store = new HandedStore(context.store, handed.snapshot);
    return this.update({ store, keys: context.keys }, expected);
  }

  /** The next run, with what this one learned. */
  #again(): Promise<Attempt> {
    return this.run(this.#run + 1);
  }

  decide(record: ProfileRecord | undefined): LoadRunDecision {
    this.#checking = false;
    this.#dataJson = undefined;
    const now = this.context.scheduler.now();
    this.#decidedAt = now;
    return {
      load: decideLoad(record, loadContext(this.context, this.input, this.#presence, now)),
      marker: record?.meta.trade,
    };
  }

  next(
    record: ProfileRecord | undefined,
    { load, marker }: LoadRunDecision,
  ): ProfileRecord | undefined {
    if (load.kind !== 'take') return undefined;
    if (markerGate(marker, this.#settledTrade) === 'settle-first') return undefined;
    const { context, input } = this;
    const taken = takenRecord(context, input, record, marker, this.#recovered, this.#decidedAt);
    const check = this.#check;
    this.#checking =
      check !== undefined && !check.passes(fillDefaults(taken.data, context.settings.defaults));
    if (this.#checking) return undefined;
    // A lock handed over is taken with this read alone, unless the take changes more.
    const handed = load.reason === 'handed' && record !== undefined;
    if (handed && !handedTakeWrites(record, taken)) return undefined;
    const dataJson = takenJson(input, record, taken);
    this.#dataJson = dataJson;
    return withDataJson(taken, dataJson);
  }

  /** What a run's outcome leads to: a take, a lock found, a failure, or another run. */
  protected settled(written: Written<LoadRunDecision>): Attempt | Promise<Attempt> {
    if (!written.ok) {
      if (written.final) throw written.error;
      return { kind: 'failed', error: written.error };
    }
    const check = this.#check;
    if (this.#checking && check) return check.settle().then(() => this.#again());
    const { context, input } = this;
    const { load, marker } = written.decision;
    if (load.kind === 'locked') return { kind: 'locked', holder: load.holder };
    if (load.kind === 'read-presence') {
      return input.presenceOf(load.holder).then((answer) => {
        this.#presence = answer;
        return this.#again();
      });
    }
    if (marker && markerGate(marker, this.#settledTrade) === 'settle-first') {
      // The journal's key is this driver's, never the one the record names.
      const journalKey = context.keys.journal(marker.id);
      const now = context.scheduler.now();
      return recoverTrade(context.store, journalKey, marker, now).then((trade) => {
        this.#recovered = trade;
        return this.#again();
      });
    }
    const { stored } = written;
    if (stored === undefined) throw noRecord(this.key);
    const handed = this.#handed;
    const acquired: Acquired = {
      record: stored,
      storeKey: input.storeKey,
      snapshot: written.snapshot,
      dataJson: written.wrote ? this.#dataJson : undefined,
      reason: load.reason,
      // Taken on the reply's record with no store call: no later than the first ask.
      takenAt: handed && written.snapshot === handed.snapshot ? handed.since : this.#decidedAt,
      from: load.from,
      recovered: this.#recovered,
    };
    return { kind: 'taken', acquired };
  }
}

function unsettled(key: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.Conflict,
    `the load of ${key} re-read its record ${MAX_RUNS_PER_ATTEMPT} times without settling it (presence reads, trade recoveries); nothing was written`,
    { details: { key } },
  );
}

/** A store that resolved without the record its update just wrote: not one to load from. */
function noRecord(key: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.BackendFailed,
    `the store resolved no record after the load of ${key} wrote one; the store does not return what it stored`,
    { details: { key } },
  );
}
