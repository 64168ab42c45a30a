/**
 * What a load's take writes, made inside its transform: the record (the trade settled, the
 * data migrated, this server's lock), its data's JSON, and the facts the load rules decide on.
 */
import type { DriverContext } from '../context/context.js';
import { type JsonObject, jsonClone } from '../ports/json.js';
import type { Released } from '../registry/released-snapshots.js';
import {
  type LoadContext,
  latestSchema,
  lockedRecord,
  migrateData,
  oldestCompatible,
  type PresenceAnswer,
  type ProfileRecord,
  serializeData,
  settledData,
  type TradeMarker,
} from '../rules/index.js';
import type { RecoveredTrade } from '../trade/journal.js';

/** What a take reads of its load: the key, its token, and the lock rules' facts. */
export interface TakeInput {
  readonly key: string;
  /** The token this load writes. */
  readonly token: string;
  /** A holder proven stopped by two empty presence reads a beat apart. */
  readonly stealFrom: string | undefined;
  /** True when a profile on this server still holds a lock with that token. */
  heldHere(token: string): boolean;
  /**
   * The record as this server last released it, and its data's JSON: the first run's
   * `expected`, so no read, and a take that keeps the data reuses the JSON.
   */
  readonly released?: Released | undefined;
}

/**
 * The JSON of the data a take writes: the release's, for the record this server released when
 * the take keeps its data (it was parsed from that JSON), else made once here. The record's
 * JSON is made from it, and the session's first snapshot reuses it.
 */
export function takenJson(
  input: TakeInput,
  record: ProfileRecord | undefined,
  taken: ProfileRecord,
): string {
  // The snapshot's own record: the transform skips parsing it (`GuardedUpdate`).
  const released = input.released;
  const kept = record !== undefined && (record as unknown) === released?.snapshot.record;
  if (kept && taken.data === record.data && released?.dataJson !== undefined) {
    return released.dataJson;
  }
  return JSON.stringify(taken.data);
}

export function loadContext(
  context: DriverContext,
  input: TakeInput,
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
export function takenRecord(
  context: DriverContext,
  input: TakeInput,
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
