/**
 * `Data.InvalidData` naming the paths where `json`, the data as a write sends it, fails the
 * driver's schema: checked on a copy, so the game's changes meanwhile are not what it vouches
 * for. Synchronous schemas add no wait.
 */
import type { DriverContext } from '../context/context.js';
import { enforce, judge } from '../rules/index.js';

const NOTHING_WRITTEN = 'nothing was written';

export function matchSchema(
  context: DriverContext,
  key: string,
  json: string,
): Promise<void> | undefined {
  const { schema } = context.settings;
  if (schema === undefined) return undefined;
  const verdict = judge(schema, key, JSON.parse(json));
  if (!(verdict instanceof Promise)) {
    enforce(key, verdict, NOTHING_WRITTEN);
    return undefined;
  }
  return verdict.then((settled) => enforce(key, settled, NOTHING_WRITTEN));
}
