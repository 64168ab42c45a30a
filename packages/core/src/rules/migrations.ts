/**
 * Schema migrations, applied on load. Records carry the schema version of their data; a
 * server refuses a record from a newer schema than it knows instead of overwriting it, so a
 * mixed-version deploy cannot destroy data. A step that only adds what older code can ignore
 * declares itself `backwardsCompatible`: records then also carry the oldest schema that can
 * load them (`meta.compatible`), and an older server within it loads the newer data as it is,
 * writing it back under the newer schema with the fields it does not know untouched.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { type JsonObject, jsonClone } from '../ports/json.js';

export interface Migration {
  /** The schema version this step produces: positive integers, ascending, no gaps required. */
  readonly version: number;
  /** Turns data of the previous schema into this one. Pure: it may run more than once. */
  readonly migrate: (data: JsonObject) => JsonObject;
  /**
   * True when code of the previous schema still works on data of this one (the step adds
   * fields, never renames, removes or retypes what older code reads): during a rolling deploy
   * an older server loads such data instead of refusing it.
   */
  readonly backwardsCompatible?: boolean;
}

/** The steps in order, or `Data.InvalidConfig` when versions are not ascending positive integers. */
export function checkMigrations(steps: readonly Migration[] = []): readonly Migration[] {
  steps.forEach((step, index) => {
    const previous = index === 0 ? 0 : steps[index - 1]!.version;
    if (
      !Number.isSafeInteger(step.version) ||
      step.version <= previous ||
      typeof step.migrate !== 'function'
    ) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        'migrations must be { version, migrate } steps with ascending positive integer versions',
      );
    }
    if (step.backwardsCompatible !== undefined && typeof step.backwardsCompatible !== 'boolean') {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `migration ${step.version}'s backwardsCompatible must be true or false`,
      );
    }
  });
  return steps;
}

/** The newest schema this server knows (0 with no migrations). */
export function latestSchema(steps: readonly Migration[]): number {
  return steps.at(-1)?.version ?? 0;
}

/**
 * The oldest schema whose code can load data of the newest one: the version before the last
 * run of backwards-compatible steps (the newest itself when the last step is not one).
 */
export function oldestCompatible(steps: readonly Migration[]): number {
  let oldest = latestSchema(steps);
  for (let index = steps.length - 1; index >= 0 && steps[index]!.backwardsCompatible; index -= 1) {
    oldest = index === 0 ? 0 : steps[index - 1]!.version;
  }
  return oldest;
}

/**
 * `data` brought from `schema` up to the newest schema. Data of a newer schema is loaded as it
 * is when its record says this server's schema can (`compatible`, its oldest compatible one),
 * and refused otherwise.
 */
export function migrateData(
  key: string,
  data: JsonObject,
  schema: number,
  steps: readonly Migration[],
  compatible?: number,
): JsonObject {
  const latest = latestSchema(steps);
  if (schema > latest) {
    if (compatible !== undefined && compatible <= latest) return data;
    throw new DataDriverError(
      ErrorCode.NewerSchema,
      `${key} was written with schema ${schema}, newer than this server's ${latest}${compatible === undefined ? '' : ` (it loads on schema ${compatible} and later)`}; it was left untouched`,
      { details: { key, schema, latest } },
    );
  }
  let migrated = data;
  for (const step of steps) {
    if (step.version > schema) migrated = step.migrate(jsonClone(migrated));
  }
  return migrated;
}
