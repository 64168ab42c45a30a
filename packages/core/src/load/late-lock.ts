/**
 * A store attempt that outlasted its join's hard end (`join-deadline.ts`) may still land and
 * write this server's lock under a token no session holds. Once it does, that lock is released
 * at once (as an orphaned own lock is), rather than left for other servers to wait out.
 */
import type { DriverContext } from '../context/context.js';
import { describeError } from '../ports/errors.js';
import { decideOrphanRelease, releasedRecord } from '../rules/index.js';
import { guardedWrite } from '../session/guarded-write.js';
import type { Attempt } from './load-attempt.js';

export function releaseLateLock(
  context: DriverContext,
  key: string,
  token: string,
  heldHere: (token: string) => boolean,
  late: Promise<Attempt>,
): void {
  const release = late.then(async (attempt) => {
    if (attempt.kind !== 'taken') return;
    const written = await guardedWrite(context, {
      key,
      what: 'late lock release',
      decide: (record) =>
        decideOrphanRelease(record, token, { jobId: context.identity.jobId, heldHere }),
      next: (record, decision) =>
        decision === 'release' && record ? releasedRecord(record, record.data, token) : undefined,
    });
    if (!written.ok) {
      context.logger.warn(
        `could not release the lock of ${key} a timed-out load took late: ${describeError(written.error)}`,
      );
    }
  });
  // A late attempt that failed wrote nothing to release: its failure was the timeout's.
  context.background.track(release.catch(() => undefined));
}
