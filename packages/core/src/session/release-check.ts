/**
 * What a release checks before it writes: the data's JSON (`Data.InvalidData`) and the
 * driver's schema, whose verdict may come later. A refusal writes nothing, is reported as a
 * failed release save, and leaves the session active, so a release after fixing the data works.
 */
import type { DriverContext } from '../context/context.js';
import type { DataDriverError } from '../ports/errors.js';

export interface ReleaseChecked {
  readonly key: string;
  /** The data's JSON as a write sends it, or throws `Data.InvalidData`. */
  validate(): string;
  /** Throws `Data.InvalidData` as `validate` does, without making the JSON. */
  checkData(): void;
  /** `undefined` when the schema (if any) passed at once; else its verdict. */
  matchSchema(json: string): Promise<void> | undefined;
}

/**
 * `undefined` when the data passed at once; else a promise of the verdict (rejected: refused).
 * Without a schema the data is walked, not stringified: the release's write makes its JSON.
 */
export function checkBeforeRelease(
  context: DriverContext,
  session: ReleaseChecked,
): Promise<void> | undefined {
  let verdict: Promise<void> | undefined;
  try {
    if (context.settings.schema === undefined) session.checkData();
    else verdict = session.matchSchema(session.validate());
  } catch (error) {
    return refused(context, session.key, error);
  }
  return verdict?.catch((error: unknown) => refused(context, session.key, error));
}

function refused(context: DriverContext, key: string, error: unknown): Promise<never> {
  const failure = error as DataDriverError;
  context.emit({
    type: 'profile.save-failed',
    key,
    reason: 'release',
    error: failure,
    durationMs: 0, // refused before any write
  });
  return Promise.reject(failure);
}
