/**
 * The writes a session makes under its lock: its lock rule and the record it writes. A save and
 * the release run through the session's one update (`SessionUpdate`), landing in the session's
 * writes (`WriteLanding`, `session-io.ts`); an erasure and a trade marker are plain
 * `GuardedWrite`s, run by `guardedWrite`.
 */
import type { DriverContext } from '../context/context.js';
import type { SaveReason } from '../events/events.js';
import type { JsonObject } from '../ports/json.js';
import { withDataJson } from '../ports/record-json.js';
import {
  decideRelease,
  decideSave,
  handedRecord,
  handOverAskWindowMs,
  type LockInfo,
  type LockWriter,
  latestSchema,
  lockedRecord,
  type MetaExtras,
  markedRecord,
  oldestCompatible,
  type ProfileRecord,
  type ReleaseDecision,
  releasedRecord,
  type SaveDecision,
  serializeData,
  type TradeMarker,
} from '../rules/index.js';
import type { ProfileMessages } from '../rules/messages/index.js';
import type { GuardedWrite, Written } from './guarded-write.js';
import type { HandOver } from './requesters.js';

/** What a session's writes read of it: the user ids and messages every write records. */
export interface WrittenSession {
  /** The user ids its record belongs to (for erasure requests). */
  readonly userIds: readonly string[];
  /** What its record keeps of messages now. */
  readonly messages: { readonly current: ProfileMessages };
  /** The requester its release hands the lock to, if one asked for it since `since`. */
  handOver(since: number): HandOver | undefined;
}

/**
 * What each write of a session carries: its key, its lock, and the meta it keeps, the user ids
 * and the messages included. A class, not closures: one is made per load.
 */
export class SessionWriter {
  readonly #schema: number;
  readonly #compatible: number;
  /**
   * What the write under way records of messages, taken with its data (`take`): a transfer
   * made while it waits for the store goes out with its debit, in a later write.
   */
  #carried: ProfileMessages | undefined;
  constructor(
    private readonly context: DriverContext,
    readonly key: string,
    readonly token: string,
    private readonly session: WrittenSession,
    /** The store key of `key`, made once for all of the session's writes (by its load). */
    readonly storeKey: string,
  ) {
    const { migrations } = context.settings;
    this.#schema = latestSchema(migrations);
    this.#compatible = oldestCompatible(migrations);
  }

  /** The lock this session writes, stamped now. */
  writer(): LockWriter {
    const { context, token } = this;
    return {
      jobId: context.identity.jobId,
      token,
      now: context.scheduler.now(),
      presence: context.link.beatsPresence,
    };
  }

  /** The meta every write keeps: the schema, the user ids, the messages. */
  extras(): MetaExtras {
    const { session } = this;
    return {
      schema: this.#schema,
      compatible: this.#compatible,
      userIds: session.userIds,
      messages: this.#carried ?? session.messages.current,
    };
  }

  /**
   * The lock the release writes for the server it hands the key to, stamped now, or none. A
   * server that asks for a hand-over beats presence (it is how it reads this lock back), so the
   * lock carries the flag.
   */
  handedLock(): LockInfo | undefined {
    const { settings, scheduler } = this.context;
    if (!settings.handOverLocks) return undefined;
    const now = scheduler.now();
    // Only to a load that asked within two of its repeats: one asking longer ago may be gone.
    const since = now - handOverAskWindowMs(settings.timings);
    const handOver = this.session.handOver(since);
    if (handOver === undefined) return undefined;
    return { jobId: handOver.jobId, token: handOver.token, time: now, presence: true };
  }

  /**
   * The JSON of `data` for a write (or `Data.InvalidData` naming the first value JSON would
   * change: the check every write of the data passes first); the write records the messages
   * as they are now, taken at the same instant.
   */
  take(data: JsonObject): string {
    const json = serializeData(this.key, data);
    this.#carried = this.session.messages.current;
    return json;
  }

  /** The write ended: the next one records the messages as they are then. */
  drop(): void {
    this.#carried = undefined;
  }
}

const dataOf = (json: string) => JSON.parse(json) as JsonObject;

/**
 * What a write of the data reads of the session's last one (its `WrittenSnapshot`): its JSON,
 * and that JSON parsed when that write stored it.
 */
interface LastWrite {
  readonly json: string;
  readonly parsed?: JsonObject | undefined;
}

/**
 * Where a session's save and its release land, in their write's own callback: the session's
 * writes (`session-io.ts`), which go on from the outcome and report it.
 */
export interface WriteLanding {
  saveLanded(save: SaveWrite, written: Written<SaveDecision>): void;
  releaseLanded(release: ReleaseWrite, written: Written<ReleaseDecision>): void;
}

/**
 * A save or the release of `json`, begun `at`, after the session's write `last`: it keeps a
 * version when the data changed, and shares the data `last` parsed when it did not (records are
 * never changed once written, so two may share it). A class, not closures: one object a write,
 * run by the session's update (`SessionUpdate`), which it lands in (`settled`).
 */
export abstract class DataWrite<D> implements GuardedWrite<D> {
  readonly keepVersion: boolean;
  /** `JSON.parse(json)`, when the session's last write stored it already. */
  readonly #parsed: JsonObject | undefined;

  constructor(
    protected readonly landing: WriteLanding,
    protected readonly session: SessionWriter,
    /** The data written, as JSON: the snapshot the write leaves. */
    readonly json: string,
    last: LastWrite,
    /** When the write began, on this server's clock: the time its lock is at least as new as. */
    readonly at: number,
  ) {
    const same = json === last.json;
    this.keepVersion = !same;
    this.#parsed = same ? last.parsed : undefined;
  }

  // Read from the session, not kept: a field is a word of every write.
  get key(): string {
    return this.session.key;
  }

  get storeKey(): string {
    return this.session.storeKey;
  }

  abstract readonly what: string;
  abstract decide(record: ProfileRecord | undefined): D;
  abstract next(record: ProfileRecord | undefined, decision: D): ProfileRecord | undefined;
  /** The write's outcome, in its update's own callback: what it throws rejects the write. */
  abstract settled(written: Written<D>): void;

  /** The data the record holds: `json` parsed, once a run writes it. */
  protected data(): JsonObject {
    return this.#parsed ?? dataOf(this.json);
  }
}

/**
 * A save of `json`, asked for `reason` at `started`; `retake`: an adoption may relock a record
 * its own release left.
 */
export class SaveWrite extends DataWrite<SaveDecision> {
  get what(): string {
    return 'save';
  }

  constructor(
    landing: WriteLanding,
    session: SessionWriter,
    json: string,
    last: LastWrite,
    at: number,
    readonly reason: SaveReason,
    readonly started: number,
    private readonly retake: boolean,
  ) {
    super(landing, session, json, last, at);
  }

  decide(record: ProfileRecord | undefined): SaveDecision {
    return decideSave(record, this.session.token, { retake: this.retake });
  }

  next(record: ProfileRecord | undefined, decision: SaveDecision): ProfileRecord | undefined {
    if (decision.kind === 'lost') return undefined;
    const { session } = this;
    const locked = lockedRecord(record, this.data(), session.writer(), session.extras());
    return withDataJson(locked, this.json);
  }

  settled(written: Written<SaveDecision>): void {
    this.landing.saveLanded(this, written);
  }
}

/** The leave save: `json` with the lock cleared, or handed to the server that asked for it. */
export class ReleaseWrite extends DataWrite<ReleaseDecision> {
  get what(): string {
    return 'release';
  }

  decide(record: ProfileRecord | undefined): ReleaseDecision {
    return decideRelease(record, this.session.token);
  }

  next(record: ProfileRecord | undefined, decision: ReleaseDecision): ProfileRecord | undefined {
    if (decision.kind !== 'write') return undefined;
    const { session } = this;
    const handed = session.handedLock();
    const data = this.data();
    const extras = session.extras();
    return withDataJson(
      handed === undefined
        ? releasedRecord(record, data, session.token, extras)
        : handedRecord(record, data, session.token, handed, extras),
      this.json,
    );
  }

  settled(written: Written<ReleaseDecision>): void {
    this.landing.releaseLanded(this, written);
  }
}

/** An erasure: the record deleted under the lock. */
export function eraseWrite(session: SessionWriter): GuardedWrite<SaveDecision> {
  return {
    key: session.key,
    storeKey: session.storeKey,
    what: 'erase',
    decide: (record) => decideSave(record, session.token),
    next: (_record, decision) => (decision.kind === 'write' ? null : undefined),
  };
}

/**
 * A trade's marker on this participant, with its current data (`json`): what an abort leaves
 * it with, earlier trades included.
 */
export function markerWrite(
  session: SessionWriter,
  json: string,
  marker: Omit<TradeMarker, 'version'>,
): GuardedWrite<SaveDecision> {
  return {
    key: session.key,
    storeKey: session.storeKey,
    what: 'trade marker',
    decide: (record) => decideSave(record, session.token),
    next: (record, decision) =>
      record !== undefined && decision.kind === 'write'
        ? withDataJson(
            markedRecord(record, dataOf(json), marker, session.writer(), session.extras()),
            json,
          )
        : undefined,
  };
}
