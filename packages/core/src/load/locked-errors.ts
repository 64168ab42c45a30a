/** The `Data.Locked` errors a load ends in, in one wording wherever they are thrown. */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { LockInfo, WaitReason } from '../rules/index.js';

/** The profile of `key` is locked by `holder`: another server's lock, or this one's (`jobId`). */
export function lockedError(key: string, holder: LockInfo, jobId: string): DataDriverError {
  const where = holder.jobId === jobId ? 'this server' : 'another server';
  return new DataDriverError(
    ErrorCode.Locked,
    `profile is locked by ${where} (key ${key}, server ${holder.jobId}, token ${holder.token}, presence ${holder.presence})`,
    { details: { key, holder } },
  );
}

/** The profile of `key` is busy on this server (`jobId`) past the wait: a save, a release... */
export function lockedHere(key: string, jobId: string, reason: WaitReason): DataDriverError {
  const what = reason.replace('local-', '');
  return new DataDriverError(
    ErrorCode.Locked,
    `profile is locked by this server (key ${key}, server ${jobId}, ${what} in progress)`,
    { details: { key, reason } },
  );
}
