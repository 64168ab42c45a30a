/**
 * What a release checks before it writes: the data's JSON (`Data.InvalidData`) and the
 * driver's schema, whose verdict may come later. A refusal writes nothing, is reported as a
 * failed release save, and leaves the session active, so a release after fixing the data works.
 */
import type { DriverContext } from '../context/context.js';
import type { DataDriverError } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import { checkData, serializeData } from '../rules/index.js';
import { matchSchema } from './schema-match.js';

/**
 * `undefined` when `data` passed at once; else a promise of the verdict (rejected: refused).
 * Without a schema the data is walked, not stringified: the release's write makes its JSON.
 */
export function checkBeforeRelease(
  context: DriverContext,
  key: string,
  data: JsonObject,
): Promise<void> | undefined {
  let verdict: Promise<void> | undefined;
  try {
    if (context.settings.schema === undefined) checkData(key, data);
    else verdict = matchSchema(context, key, serializeData(key, data));
  } catch (error) {
    return refused(context, key, error);
  }
  return verdict?.catch((error: unknown) => refused(context, key, error));
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
