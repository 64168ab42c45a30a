/**
 * What a session's writes report once they settle: `profile.saved` or `profile.save-failed`,
 * `profile.released` (naming the server a hand-over gave the lock to), then the `afterSave`
 * hook with the data as the landed write sent it.
 */
import type { DriverContext } from '../context/context.js';
import type { SaveReason } from '../events/events.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { afterSave, type HookedSession } from './save-hooks.js';
import { committedMeta, type WrittenSnapshot } from './written-snapshot.js';

/** A save landed (`started`: when it began, on the driver's clock). */
export function reportSaved(
  context: DriverContext,
  session: HookedSession,
  reason: SaveReason,
  written: WrittenSnapshot,
  started: number,
): void {
  const { key } = session;
  // The clock is read for the event only when someone hears it (most servers: nobody).
  if (context.events.listening('profile.saved')) {
    const durationMs = context.scheduler.now() - started;
    context.emit({ type: 'profile.saved', key, reason, durationMs });
  }
  reportAfterSave(context, session, reason, written);
}

/** A save failed: reported (`profile.save-failed`) unless the lock was lost; the error. */
export function saveFailure(
  context: DriverContext,
  key: string,
  reason: SaveReason,
  error: unknown,
  started: number,
): DataDriverError {
  const failure = error as DataDriverError;
  if (!DataDriverError.is(failure, ErrorCode.LockLost)) {
    const durationMs = context.scheduler.now() - started;
    context.emit({ type: 'profile.save-failed', key, reason, error: failure, durationMs });
  }
  return failure;
}

/** The release landed: a lock left in the released record is the one it handed over. */
export function reportReleased(
  context: DriverContext,
  session: HookedSession,
  written: WrittenSnapshot,
): void {
  if (context.events.listening('profile.released')) {
    const { key } = session;
    const handedTo = committedMeta(written)?.lock?.jobId;
    context.emit(
      handedTo === undefined
        ? { type: 'profile.released', key }
        : { type: 'profile.released', key, handedTo },
    );
  }
  reportAfterSave(context, session, 'release', written);
}

function reportAfterSave(
  context: DriverContext,
  session: HookedSession,
  reason: SaveReason,
  written: WrittenSnapshot,
): void {
  // No hook, no object for it: every landed write passes here.
  if (context.settings.saveHooks.afterSave === undefined) return;
  afterSave(context, session, { reason, json: written.json, version: written.version });
}
