/**
 * One attempt of a load: one atomic update whose transform runs the load rules. A presence
 * read and a trade recovery each re-run it with the new fact; a record that keeps asking for
 * more is refused, never looped on.
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { type JsonObject, jsonClone } from '../ports/json.js';
import { withDataJson } from '../ports/record-json.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { Released } from '../registry/released-snapshots.js';
import type { HandedTake } from '../registry/reservation.js';
import {
  decideLoad,
  fillDefaults,
  handedTakeWrites,
  type LoadContext,
  type LockInfo,
  latestSchema,
  lockedRecord,
  markerGate,
  migrateData,
  oldestCompatible,
  type PresenceAnswer,
  type ProfileRecord,
  serializeData,
  settledData,
  type TakeReason,
  type TradeMarker,
} from '../rules/index.js';
import { guardedWrite } from '../session/guarded-write.js';
import { type RecoveredTrade, recoverTrade } from '../trade/journal.js';
import { HandedStore } from './handed-store.js';
import { LoadCheck } from './load-check.js';

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

export interface AttemptInput {
  readonly key: string;
  /** Its store key, made once for the load: every attempt and the session's writes use it. */
  readonly storeKey: string;
  /** The token this load writes. */
  readonly token: string;
  /** A holder proven stopped by two empty presence reads a beat apart. */
  readonly stealFrom: string | undefined;
  /** True when a profile on this server still holds a lock with that token. */
  heldHere(token: string): boolean;
  /** The holder's presence, read when a stale flagged lock asks for it. */
  presenceOf(holder: LockInfo): Promise<PresenceAnswer>;
  /**
   * The record as this server last released it, and its data's JSON: the first run's
   * `expected`, so no read, and a take that keeps the data reuses the JSON.
   */
  readonly released?: Released | undefined;
  /**
   * The record the holder's signed reply handed to this load (`handedSnapshot`): the first run
   * decides on it, and reads nothing when the lock is this load's already (`HandedStore`).
   * `since`: when this load first asked for it, on this server's clock; the holder's write
   * came after, so a take on it with no read is as old as that (`Acquired.takenAt`).
   */
  readonly handed?: HandedTake | undefined;
}

/**
 * One atomic update running the load rules; presence and trade recovery re-run it. A promise
 * chain, not an async function: a run is the store's promise and the write's.
 */
export function attemptLoad(context: DriverContext, input: AttemptInput): Promise<Attempt> {
  const { key } = input;
  let presence: PresenceAnswer | undefined;
  let recovered: RecoveredTrade | undefined;
  const { schema } = context.settings;
  const check = schema === undefined ? undefined : new LoadCheck(schema, key);
  let checking = false;
  /** When the transform's run decided: its lock, if it takes one, is stamped the same. */
  let decidedAt = 0;
  /** The JSON of the data the transform's run wrote, if it wrote (`takenJson`). */
  let dataJson: string | undefined;
  const runFrom = (run: number): Promise<Attempt> => {
    if (run > MAX_RUNS_PER_ATTEMPT) return Promise.reject(unsettled(key));
    const settledTrade = recovered?.trade;
    const again = () => runFrom(run + 1);
    const first = run === 1;
    const handed = first ? input.handed : undefined;
    const store = handed ? new HandedStore(context.store, handed.snapshot) : context.store;
    return guardedWrite(
      { store, keys: context.keys },
      {
        key,
        storeKey: input.storeKey,
        what: 'load',
        decide: (record) => {
          checking = false;
          dataJson = undefined;
          decidedAt = context.scheduler.now();
          return {
            load: decideLoad(record, loadContext(context, input, presence, decidedAt)),
            marker: record?.meta.trade,
          };
        },
        next: (record, { load, marker }) => {
          if (load.kind !== 'take') return undefined;
          if (markerGate(marker, settledTrade) === 'settle-first') return undefined;
          const taken = takenRecord(context, input, record, marker, recovered, decidedAt);
          checking =
            check !== undefined &&
            !check.passes(fillDefaults(taken.data, context.settings.defaults));
          if (checking) return undefined;
          // A lock handed over is taken with this read alone, unless the take changes more.
          const handed = load.reason === 'handed' && record !== undefined;
          if (handed && !handedTakeWrites(record, taken)) return undefined;
          dataJson = takenJson(input, record, taken);
          return withDataJson(taken, dataJson);
        },
      },
      first ? input.released?.snapshot : undefined,
      (written): Attempt | Promise<Attempt> => {
        if (!written.ok) {
          if (written.final) throw written.error;
          return { kind: 'failed', error: written.error };
        }
        if (checking && check) return check.settle().then(again);
        const { load, marker } = written.decision;
        if (load.kind === 'locked') return { kind: 'locked', holder: load.holder };
        if (load.kind === 'read-presence') {
          return input.presenceOf(load.holder).then((answer) => {
            presence = answer;
            return again();
          });
        }
        if (marker && markerGate(marker, settledTrade) === 'settle-first') {
          // The journal's key is this driver's, never the one the record names.
          const journalKey = context.keys.journal(marker.id);
          const now = context.scheduler.now();
          return recoverTrade(context.store, journalKey, marker, now).then((trade) => {
            recovered = trade;
            return again();
          });
        }
        const { stored } = written;
        if (stored === undefined) throw noRecord(key);
        const acquired: Acquired = {
          record: stored,
          storeKey: input.storeKey,
          snapshot: written.snapshot,
          dataJson: written.wrote ? dataJson : undefined,
          reason: load.reason,
          // Taken on the reply's record with no store call: no later than the first ask.
          takenAt: handed && written.snapshot === handed.snapshot ? handed.since : decidedAt,
          from: load.from,
          recovered,
        };
        return { kind: 'taken', acquired };
      },
    );
  };
  return runFrom(1);
}

/**
 * The JSON of the data a take writes: the release's, for the record this server released when
 * the take keeps its data (it was parsed from that JSON), else made once here. The record's
 * JSON is made from it, and the session's first snapshot reuses it.
 */
function takenJson(
  input: AttemptInput,
  record: ProfileRecord | undefined,
  taken: ProfileRecord,
): string {
  // The snapshot's own record: the transform skips parsing it (`guardedWrite`).
  const released = input.released;
  const kept = record !== undefined && (record as unknown) === released?.snapshot.record;
  if (kept && taken.data === record.data && released?.dataJson !== undefined) {
    return released.dataJson;
  }
  return JSON.stringify(taken.data);
}

function loadContext(
  context: DriverContext,
  input: AttemptInput,
  presence: PresenceAnswer | undefined,
  now: number,
): LoadContext {
  return {
    jobId: context.identity.jobId,
    token: input.token,
    now,
    lockTtlSeconds: context.settings.lockTtlSeconds,
    lockSkewSeconds: context.settings.lockSkewSeconds,
    handoff: context.link.beatsPresence,
    heldHere: input.heldHere,
    stealFrom: input.stealFrom,
    holderPresence: presence,
  };
}

/** The record a take writes: the trade settled, the data migrated, this server's lock. */
function takenRecord(
  context: DriverContext,
  input: AttemptInput,
  record: ProfileRecord | undefined,
  marker: TradeMarker | undefined,
  recovered: RecoveredTrade | undefined,
  now: number,
): ProfileRecord {
  const { defaults, migrations } = context.settings;
  const writer = {
    jobId: context.identity.jobId,
    token: input.token,
    now,
    presence: context.link.beatsPresence,
  };
  const schema = { schema: latestSchema(migrations), compatible: oldestCompatible(migrations) };
  // A copy: the session's data shares the taken record's nested objects, and the defaults
  // are every new profile's (one player's pushed item must not be the next one's).
  if (record === undefined) return lockedRecord(undefined, jsonClone(defaults), writer, schema);
  const { key } = input;
  const settled = marker ? settledData(record, key, marker, recovered?.journal) : record.data;
  const { meta } = record;
  const migrated = migrateData(key, settled, meta.schema ?? 0, migrations, meta.compatible);
  // What a migration returns is written now: it must survive JSON like any save.
  const data =
    migrated === settled ? settled : (JSON.parse(serializeData(key, migrated)) as JsonObject);
  return lockedRecord(record, data, writer, schema);
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
