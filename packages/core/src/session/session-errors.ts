/** The errors a session's calls end in, in one wording wherever they are thrown. */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { LockInfo } from '../rules/index.js';

/** `Data.Inactive`: the profile of `key` was released, lost or erased, or is leaving. */
export function inactiveError(key: string): DataDriverError {
  return new DataDriverError(ErrorCode.Inactive, `the profile of ${key} is not active`, {
    details: { key },
  });
}

/** `Data.LockLost`: a write of `key` found its lock taken (by `holder`, where known). */
export function lockLostError(key: string, holder: LockInfo | undefined): DataDriverError {
  return new DataDriverError(
    ErrorCode.LockLost,
    `the lock of ${key} was taken${holder ? ` by server ${holder.jobId}` : ''}; the profile is deactivated`,
    { details: { key, holder } },
  );
}
