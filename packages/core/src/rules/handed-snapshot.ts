/**
 * The record a holder's signed reply hands to a load (`handOverLocks`): the holder's release
 * wrote the load's lock, and the reply carries what that write stored, so the load takes the
 * lock with no read of the store. The load trusts it only as far as a read: it must be a JSON
 * object whose lock is the load's own (this server, this load's token), and the load's write
 * then checks it as it checks any stored record (`parseRecord`). Anything else is not used,
 * and the load reads the store as it would without it (`load/handed-store.ts`).
 */
import { isPlainObject } from '../ports/json.js';
import { parseMessage } from '../ports/parse-message.js';
import type { StoreRecord, StoreSnapshot } from '../ports/store.js';

/** True when `record`'s lock is server `jobId`'s under `token`. */
export function lockedFor(record: StoreRecord, jobId: string, token: string): boolean {
  const { meta } = record;
  if (!isPlainObject(meta) || !isPlainObject(meta.lock)) return false;
  return meta.lock.jobId === jobId && meta.lock.token === token;
}

/**
 * The snapshot a load by server `jobId` under `token` may take the lock from: the
 * record in `json` at `version`, when it is a record locked for that load; else `undefined`.
 */
export function handedSnapshot(
  handed: { readonly version: string; readonly json: string },
  load: { readonly jobId: string; readonly token: string },
): StoreSnapshot | undefined {
  // A JSON object, as any message's payload: the record came in one.
  const record = parseMessage(handed.json);
  if (record === undefined || !lockedFor(record, load.jobId, load.token)) return undefined;
  return { record, version: handed.version };
}
