/**
 * Schema migrations, applied on load. Records carry the schema version of their data; a
 * server refuses a record from a newer schema than it knows instead of overwriting it, so a
 * mixed-version deploy cannot destroy data.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { type JsonObject, jsonClone } from '../ports/json.js';

export interface Migration {
  /** The schema version this step produces: positive integers, ascending, no gaps required. */
  readonly version: number;
  /** Turns data of the previous schema into this one. Pure: it may run more than once. */
  readonly migrate: (data: JsonObject) => JsonObject;
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
  });
  return steps;
}

/** The newest schema this server knows (0 with no migrations). */
export function latestSchema(steps: readonly Migration[]): number {
  return steps.at(-1)?.version ?? 0;
}

/** `data` brought from `schema` up to the newest schema, or a refusal if it is newer. */
export function migrateData(
  key: string,
  data: JsonObject,
  schema: number,
  steps: readonly Migration[],
): JsonObject {
  const latest = latestSchema(steps);
  if (schema > latest) {
    throw new DataDriverError(
      ErrorCode.NewerSchema,
      `${key} was written with schema ${schema}, newer than this server's ${latest}; it was left untouched`,
      { details: { key, schema, latest } },
    );
  }
  let migrated = data;
  for (const step of steps) {
    if (step.version > schema) migrated = step.migrate(jsonClone(migrated));
  }
  return migrated;
}
