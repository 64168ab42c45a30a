/**
 * A lock of this server that no session here holds, under one load's token, cleared: what a
 * load that never learnt its write's outcome (a lost response, a take after its hard end)
 * leaves, and what a holder's release hands to a load that has ended (`handOverLocks`). The
 * rule (`decideOrphanRelease`) writes only over a lock under that very token that no session
 * here holds; finding none, the write stores nothing.
 */
import type { DriverContext } from '../context/context.js';
import { decideOrphanRelease, releasedRecord } from '../rules/index.js';
import { guardedWrite, type Written } from './guarded-write.js';

export function releaseOrphanedLock(
  context: DriverContext,
  key: string,
  token: string,
  heldHere: (token: string) => boolean,
  what: string,
): Promise<Written<'release' | 'keep'>> {
  const { jobId } = context.identity;
  return guardedWrite(context, {
    key,
    what,
    decide: (record) => decideOrphanRelease(record, token, { jobId, heldHere }),
    next: (record, decision) =>
      decision === 'release' && record ? releasedRecord(record, record.data, token) : undefined,
  });
}
