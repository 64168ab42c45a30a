/**
 * The records that loads, saves and releases write. Pure: a previous record in, the next
 * record out. Every write bumps the version; every write by the holder refreshes the lock's
 * time, so a lock's age is how long its holder has been silent.
 */
import { type JsonObject, jsonString } from '../ports/json.js';
import { withMetaJson } from '../ports/record-json.js';
import { type ProfileMessages, profileMessagesMeta } from './messages/profile-messages.js';
import type { LockInfo, ProfileRecord, RecordMeta, TradeMarker } from './record.js';

export interface LockWriter {
  readonly jobId: string;
  readonly token: string;
  readonly now: number;
  /** True when this server beats presence: only then does its lock carry the flag. */
  readonly presence: boolean;
}

/**
 * Meta a write sets besides the lock: the data's schema, the user ids it belongs to, and the
 * messages the holder applied (its session's, written with the data they changed).
 */
export interface MetaExtras {
  /** The writer's newest schema; a record of a newer one keeps its own (never lowered). */
  readonly schema?: number;
  /** The oldest schema that can load the writer's newest (`oldestCompatible`). */
  readonly compatible?: number;
  readonly userIds?: readonly string[];
  readonly messages?: ProfileMessages;
}

/** The fields of meta a write sets itself; the rest it carries over from the record. */
interface OwnMeta {
  readonly lock?: LockInfo;
  readonly releasedToken?: string;
  readonly trade?: TradeMarker;
}

/**
 * The meta of the record a write makes from `previous`: a new version, the write's own lock,
 * released token and marker (the previous ones are dropped), the extras (an empty list or
 * schema 0 left out, and no messages when none were applied), and, carried over, the previous
 * schema, user ids and messages when the write sets none, and any field this version does not
 * know (a newer writer's). Built field by field, in
 * one order, so every written meta shares a shape: no spread of a copy, no `delete` (which
 * would make each copy a slow dictionary object).
 */
function nextMeta(previous: RecordMeta | undefined, own: OwnMeta, extras: MetaExtras): RecordMeta {
  const meta: { -readonly [K in keyof RecordMeta]: RecordMeta[K] } = {
    version: (previous?.version ?? 0) + 1,
  };
  if (own.lock !== undefined) meta.lock = own.lock;
  if (own.releasedToken !== undefined) meta.releasedToken = own.releasedToken;
  if (own.trade !== undefined) meta.trade = own.trade;
  if (extras.schema === undefined || (previous?.schema ?? 0) > extras.schema) {
    // Data of a newer schema, loaded because it is backwards compatible: it stays that schema
    // (lowering it would run the newer server's migrations again on migrated data).
    if (previous?.schema !== undefined) meta.schema = previous.schema;
    if (previous?.compatible !== undefined) meta.compatible = previous.compatible;
  } else if (extras.schema > 0) {
    meta.schema = extras.schema;
    if (extras.compatible !== undefined && extras.compatible < extras.schema) {
      meta.compatible = extras.compatible;
    }
  }
  if (extras.userIds === undefined) {
    if (previous?.userIds !== undefined) meta.userIds = previous.userIds;
  } else if (extras.userIds.length > 0) meta.userIds = [...extras.userIds];
  if (extras.messages === undefined) {
    if (previous?.messages !== undefined) meta.messages = previous.messages;
  } else {
    const messages = profileMessagesMeta(extras.messages);
    if (messages !== undefined) meta.messages = messages as unknown as ProfileMessages;
  }
  if (previous === undefined || !hasUnknownField(previous)) return withPlainJson(meta);
  // A rest copy defines each field as data, so an unknown field named `__proto__` stays one.
  const { version, lock, releasedToken, trade, schema, compatible, userIds, messages, ...unknown } =
    previous;
  // A newer writer's fields, kept.
  return { ...unknown, ...meta };
}

/**
 * `meta` with its JSON made by hand when it holds only numbers, strings and a lock, as most
 * writes' does: stringifying the meta was an eighth of a cycle's CPU. Exactly `JSON.stringify`'s
 * text, since `nextMeta` set its fields in this order and every lock it writes has its fields
 * in `lockOf`'s; any other meta is left to `JSON.stringify` (`withDataJson`).
 */
function withPlainJson(meta: RecordMeta): RecordMeta {
  if (meta.trade !== undefined || meta.userIds !== undefined || meta.messages !== undefined) {
    return meta;
  }
  let json = `{"version":${meta.version}`;
  const { lock } = meta;
  if (lock !== undefined) {
    const { jobId, token, time, presence } = lock;
    const timeJson = Number.isFinite(time) ? `${time}` : 'null';
    json += `${lockHead(jobId)}${jsonString(token)},"time":${timeJson}${presence ? PRESENCE_TRUE : PRESENCE_FALSE}`;
  }
  const { releasedToken, schema, compatible } = meta;
  if (releasedToken !== undefined) json += `,"releasedToken":${jsonString(releasedToken)}`;
  if (schema !== undefined) json += `,"schema":${schema}`;
  if (compatible !== undefined) json += `,"compatible":${compatible}`;
  return withMetaJson(meta, `${json}}`);
}

const PRESENCE_TRUE = ',"presence":true}';
const PRESENCE_FALSE = ',"presence":false}';

/**
 * A lock's JSON up to its token, for the last `jobId` asked: a server writes every lock under
 * its one job id, so each write reuses the text rather than making it again.
 */
let lastJobId: string | undefined;
let lastLockHead = '';

function lockHead(jobId: string): string {
  if (jobId !== lastJobId) {
    lastLockHead = `,"lock":{"jobId":${jsonString(jobId)},"token":`;
    lastJobId = jobId;
  }
  return lastLockHead;
}

/** The fields of meta this version writes: any other is a newer writer's, and kept. */
const KNOWN_META_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'lock',
  'releasedToken',
  'trade',
  'schema',
  'compatible',
  'userIds',
  'messages',
] satisfies Array<keyof RecordMeta>);

/**
 * True when `meta` has an enumerable field this version does not write: the fields the rest
 * copy above would keep. Asked before making that copy, which every write would otherwise pay.
 */
function hasUnknownField(meta: RecordMeta): boolean {
  // A record's meta is a plain object (parsed JSON, or one this code built): `for...in` sees
  // its own enumerable string keys, as the rest copy does.
  for (const field in meta) if (!KNOWN_META_FIELDS.has(field)) return true;
  return false;
}

function lockOf(writer: LockWriter): LockInfo {
  return { jobId: writer.jobId, token: writer.token, time: writer.now, presence: writer.presence };
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
  return { data, meta: lockedMeta(previous?.meta, writer, extras) };
}

/** The meta of `lockedRecord`: what a load or save under this writer's lock stores. */
export function lockedMeta(
  previous: RecordMeta | undefined,
  writer: LockWriter,
  extras: MetaExtras = {},
): RecordMeta {
  return nextMeta(previous, { lock: lockOf(writer) }, extras);
}

/** `data` with the lock cleared, remembering the releasing token (see `decideSave`'s retake). */
export function releasedRecord(
  previous: ProfileRecord | undefined,
  data: JsonObject,
  token: string,
  extras: MetaExtras = {},
): ProfileRecord {
  return { data, meta: nextMeta(previous?.meta, { releasedToken: token }, extras) };
}

/**
 * `data` released by `token` and locked for the server it is handed to (a hand-over): the
 * requester's `lock`, stamped by the releasing holder, and `releasedToken` as a release leaves
 * it, so the holder's retry after a lost response sees its own release (`decideRelease`), and
 * the requester's load tells a lock handed to it from its own lost write (`decideLoad`).
 */
export function handedRecord(
  previous: ProfileRecord | undefined,
  data: JsonObject,
  token: string,
  lock: LockInfo,
  extras: MetaExtras = {},
): ProfileRecord {
  // A copy in `lockOf`'s field order, as every lock a write stores.
  const { jobId, token: lockToken, time, presence } = lock;
  const handed = lockOf({ jobId, token: lockToken, now: time, presence });
  return { data, meta: nextMeta(previous?.meta, { lock: handed, releasedToken: token }, extras) };
}

/**
 * Whether a load that found its lock handed to it (`handed`, as its holder's release wrote it)
 * must still write `taken`, the record its take would make: only when that changes more than
 * the lock's time and the version (data settled or migrated, a schema raised, a marker
 * cleared). Otherwise the handed record is taken as it is: the holder stamped its lock as the
 * release landed, moments ago.
 */
export function handedTakeWrites(handed: ProfileRecord, taken: ProfileRecord): boolean {
  return (
    taken.data !== handed.data ||
    handed.meta.trade !== undefined ||
    taken.meta.schema !== handed.meta.schema ||
    taken.meta.compatible !== handed.meta.compatible
  );
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
  const version = previous.meta.version + 1;
  const marker = { id: trade.id, journal: trade.journal, version };
  return { data, meta: nextMeta(previous.meta, { lock: lockOf(writer), trade: marker }, extras) };
}
