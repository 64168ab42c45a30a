/**
 * The records that loads, saves and releases write. Pure: a previous record in, the next
 * record out. Every write bumps the version; every write by the holder refreshes the lock's
 * time, so a lock's age is how long its holder has been silent.
 */
import type { JsonObject } from '../json.js';
import type { LockInfo, ProfileRecord, TradeMarker } from './record.js';
import { withoutMeta } from './record.js';

export interface LockWriter {
  readonly jobId: string;
  readonly token: string;
  readonly now: number;
  /** True when this server beats presence: only then does its lock carry the flag. */
  readonly presence: boolean;
}

/** Meta a write sets besides the lock: the data's schema and the user ids it belongs to. */
export interface MetaExtras {
  readonly schema?: number;
  readonly userIds?: readonly string[];
}

/** `meta` with the extras applied; an empty list or schema 0 is left out of the record. */
function withExtras<M extends object>(meta: M, extras: MetaExtras): M {
  const copy = { ...meta } as Record<string, unknown>;
  if (extras.schema !== undefined) {
    if (extras.schema > 0) copy.schema = extras.schema;
    else delete copy.schema;
  }
  if (extras.userIds !== undefined) {
    if (extras.userIds.length > 0) copy.userIds = [...extras.userIds];
    else delete copy.userIds;
  }
  return copy as M;
}

function lockOf(writer: LockWriter): LockInfo {
  return { jobId: writer.jobId, token: writer.token, time: writer.now, presence: writer.presence };
}

function nextVersion(previous: ProfileRecord | undefined): number {
  return (previous?.meta.version ?? 0) + 1;
}

/**
 * `data` under this writer's lock. A trade marker is dropped: a load writes only after
 * settling it, and a holder saves only once its trade is decided.
 */
export function lockedRecord(
  previous: ProfileRecord | undefined,
  data: JsonObject,
  writer: LockWriter,
  extras: MetaExtras = {},
): ProfileRecord {
  const meta = withExtras(
    previous ? withoutMeta(previous.meta, 'releasedToken', 'trade') : {},
    extras,
  );
  return { data, meta: { ...meta, version: nextVersion(previous), lock: lockOf(writer) } };
}

/** `data` with the lock cleared, remembering the releasing token (see `decideSave`'s retake). */
export function releasedRecord(
  previous: ProfileRecord | undefined,
  data: JsonObject,
  token: string,
  extras: MetaExtras = {},
): ProfileRecord {
  const meta = withExtras(previous ? withoutMeta(previous.meta, 'lock', 'trade') : {}, extras);
  return { data, meta: { ...meta, version: nextVersion(previous), releasedToken: token } };
}

/**
 * The holder's current `data` with a trade marker and a refreshed lock. Not the stored data:
 * the record may still carry an earlier committed trade's marker with that trade's data only
 * in its journal (its settle save failed), and replacing that marker over the older data
 * would lose the earlier trade if this one is aborted.
 */
export function markedRecord(
  previous: ProfileRecord,
  data: JsonObject,
  trade: Omit<TradeMarker, 'version'>,
  writer: LockWriter,
  extras: MetaExtras = {},
): ProfileRecord {
  // The locked write drops an earlier marker; this one takes its place, at the new version.
  const locked = lockedRecord(previous, data, writer, extras);
  return { data, meta: { ...locked.meta, trade: { ...trade, version: locked.meta.version } } };
}
