/**
 * One attempt of a load: one atomic update whose transform runs the load rules. A presence
 * read and a trade recovery each re-run it with the new fact; a record that keeps asking for
 * more is refused, never looped on.
 */
import type { DriverContext } from '../driver/context.js';
import { DataDriverError, ErrorCode, toDataDriverError } from '../errors.js';
import type { JsonObject } from '../json.js';
import {
  checkRecordSize,
  decideLoad,
  type LoadDecision,
  type LockInfo,
  latestSchema,
  lockedRecord,
  migrateData,
  type PresenceAnswer,
  type ProfileRecord,
  parseRecord,
  serializeData,
  settledData,
  type TakeReason,
  type TradeMarker,
  toStoreRecord,
} from '../rules/index.js';
import { type RecoveredTrade, recoverTrade } from '../trade/journal.js';

/**
 * Store updates one attempt may run: a presence read and a trade recovery each re-run it once,
 * and a live holder may write a new marker meanwhile. More than this is a record that never
 * settles (a marker whose recovery never matches it), refused with a typed error.
 */
export const MAX_RUNS_PER_ATTEMPT = 8;

export interface Acquired {
  readonly record: ProfileRecord;
  readonly reason: TakeReason;
  readonly from?: LockInfo;
  readonly recovered?: RecoveredTrade;
}

export type Attempt =
  | { readonly kind: 'taken'; readonly acquired: Acquired }
  | { readonly kind: 'locked'; readonly holder: LockInfo }
  | { readonly kind: 'failed'; readonly error: DataDriverError };

export interface AttemptInput {
  readonly key: string;
  /** The token this load writes. */
  readonly token: string;
  /** A holder proven stopped by two empty presence reads a beat apart. */
  readonly stealFrom: string | undefined;
  /** True when a profile on this server still holds a lock with that token. */
  heldHere(token: string): boolean;
  /** The holder's presence, read when a stale flagged lock asks for it. */
  presenceOf(holder: LockInfo): Promise<PresenceAnswer>;
}

/** One atomic update running the load rules; presence and trade recovery re-run it. */
export async function attemptLoad(ctx: DriverContext, input: AttemptInput): Promise<Attempt> {
  const { key } = input;
  let presence: PresenceAnswer | undefined;
  let recovered: RecoveredTrade | undefined;
  for (let run = 1; ; run += 1) {
    if (run > MAX_RUNS_PER_ATTEMPT) throw unsettled(key);
    let decision: LoadDecision | undefined;
    let marker: TradeMarker | undefined;
    let stored: ProfileRecord | undefined;
    let refusal: unknown;
    try {
      const result = await ctx.store.update(ctx.keys.store(key), (current) => {
        try {
          const record = parseRecord(key, current);
          decision = decideLoad(record, loadContext(ctx, input, presence));
          marker = record?.meta.trade;
          if (decision.kind !== 'take') return undefined;
          if (marker && recovered?.trade !== marker.id) return undefined; // settle it first
          const taken = toStoreRecord(takenRecord(ctx, input, record, marker, recovered));
          return checkRecordSize(key, taken, ctx.store.maxRecordBytes);
        } catch (error) {
          refusal = error;
          throw error;
        }
      });
      stored = parseRecord(key, result);
    } catch (error) {
      // The transform is pure: what it refused (a record this server must not load, a newer
      // schema, data a migration broke) it would refuse again. Thrown at once, not retried.
      if (refusal !== undefined && error === refusal) throw refused(key, error);
      if (DataDriverError.is(error, ErrorCode.InvalidRecord)) throw error;
      return {
        kind: 'failed',
        error: toDataDriverError(error, ErrorCode.BackendFailed, `load of ${key} failed`),
      };
    }
    const made: LoadDecision | undefined = decision;
    if (made === undefined) throw new Error('the store did not run the load transform');
    if (made.kind === 'locked') return { kind: 'locked', holder: made.holder };
    if (made.kind === 'read-presence') {
      presence = await input.presenceOf(made.holder);
      continue;
    }
    const pending: TradeMarker | undefined = marker;
    if (pending && recovered?.trade !== pending.id) {
      // The journal's key is this driver's, never the one the record names.
      const journalKey = ctx.keys.journal(pending.id);
      recovered = await recoverTrade(ctx.store, journalKey, pending, ctx.scheduler.now());
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

function loadContext(
  ctx: DriverContext,
  input: AttemptInput,
  presence: PresenceAnswer | undefined,
) {
  return {
    jobId: ctx.identity.jobId,
    token: input.token,
    now: ctx.scheduler.now(),
    lockTtlSeconds: ctx.settings.lockTtlSeconds,
    lockSkewSeconds: ctx.settings.lockSkewSeconds,
    handoff: ctx.link.beatsPresence,
    heldHere: input.heldHere,
    ...(input.stealFrom === undefined ? {} : { stealFrom: input.stealFrom }),
    ...(presence === undefined ? {} : { holderPresence: presence }),
  };
}

/** The record a take writes: the trade settled, the data migrated, this server's lock. */
function takenRecord(
  ctx: DriverContext,
  input: AttemptInput,
  record: ProfileRecord | undefined,
  marker: TradeMarker | undefined,
  recovered: RecoveredTrade | undefined,
): ProfileRecord {
  const { defaults, migrations } = ctx.settings;
  const writer = {
    jobId: ctx.identity.jobId,
    token: input.token,
    now: ctx.scheduler.now(),
    presence: ctx.link.beatsPresence,
  };
  const schema = { schema: latestSchema(migrations) };
  if (record === undefined) return lockedRecord(undefined, defaults, writer, schema);
  const { key } = input;
  const settled = marker ? settledData(record, key, marker, recovered?.journal) : record.data;
  const migrated = migrateData(key, settled, record.meta.schema ?? 0, migrations);
  // What a migration returns is written now: it must survive JSON like any save.
  const data =
    migrated === settled ? settled : (JSON.parse(serializeData(key, migrated)) as JsonObject);
  return lockedRecord(record, data, writer, schema);
}

/** A transform's refusal as a typed error (a migration that threw is the record's problem). */
function refused(key: string, error: unknown): DataDriverError {
  return toDataDriverError(error, ErrorCode.InvalidRecord, `the record of ${key} cannot be loaded`);
}

function unsettled(key: string): DataDriverError {
  return new DataDriverError(
    ErrorCode.Conflict,
    `the load of ${key} re-read its record ${MAX_RUNS_PER_ATTEMPT} times without settling it (presence reads, trade recoveries); nothing was written`,
    { details: { key } },
  );
}
