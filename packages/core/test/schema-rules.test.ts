import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import type { JsonObject } from '../src/ports/json.js';
import {
  type DataSchema,
  enforce,
  isDataSchema,
  judge,
  MAX_NAMED_PATHS,
  schemaRefusal,
} from '../src/rules/data-schema.js';
import {
  checkMigrations,
  latestSchema,
  type Migration,
  migrateData,
} from '../src/rules/migrations.js';

/** A Standard Schema whose validate answers `answer` (or throws it, or resolves it). */
function schema(validate: (data: unknown) => unknown): DataSchema {
  return { '~standard': { version: 1, vendor: 'test', validate } } as DataSchema;
}

function thrown(run: () => unknown): DataDriverError {
  try {
    run();
  } catch (error) {
    return error as DataDriverError;
  }
  throw new Error('nothing thrown');
}

describe('isDataSchema', () => {
  const validate = () => ({ value: 1 });
  const callable = Object.assign(() => 1, { '~standard': { version: 1, validate } });
  it.each([
    ['a Standard Schema object', { '~standard': { version: 1, validate } }, true],
    ['a Standard Schema function (arktype)', callable, true],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a string', 'schema', false],
    ['an object without ~standard', {}, false],
    ['~standard null', { '~standard': null }, false],
    ['~standard not an object', { '~standard': 'v1' }, false],
    ['another version', { '~standard': { version: 2, validate } }, false],
    ['no validate function', { '~standard': { version: 1, validate: 1 } }, false],
  ])('%s: %s', (_name, value, expected) => {
    expect(isDataSchema(value)).toBe(expected);
  });
});

// The verdict: the failing paths, named as data paths, never the values or the messages.
const verdicts: Array<[string, unknown, readonly string[] | undefined]> = [
  ['no issues: passes', { value: {} }, undefined],
  ['issues not a list: the whole data', { issues: 'bad' }, ['data']],
  ['an empty list of issues: the whole data', { issues: [] }, ['data']],
  ['an issue without a path: the whole data', { issues: [{ message: 'x' }] }, ['data']],
  ['a null issue: the whole data', { issues: [null] }, ['data']],
  [
    'paths of keys and of path segments',
    { issues: [{ path: ['items', 2, { key: 'name' }] }, { path: [{ key: 'b c' }] }] },
    ['data.items[2].name', 'data["b c"]'],
  ],
  [
    'a segment that is no key',
    { issues: [{ path: [Symbol('s'), { key: null }, null] }] },
    ['data[?][?][?]'],
  ],
  ['the same path once', { issues: [{ path: ['a'] }, { path: ['a'] }] }, ['data.a']],
  [
    'a path cut at 200 characters',
    { issues: [{ path: ['k'.repeat(300)] }] },
    [`data.${'k'.repeat(195)}…`],
  ],
  [
    'a path of exactly 200 characters kept',
    { issues: [{ path: ['k'.repeat(195)] }] },
    [`data.${'k'.repeat(195)}`],
  ],
];

describe('judge', () => {
  it.each(verdicts)('%s', (_name, result, expected) => {
    expect(
      judge(
        schema(() => result),
        'p1',
        {},
      ),
    ).toEqual(expected);
  });

  it('an asynchronous schema answers later, with the same verdict', async () => {
    const verdict = judge(
      schema(async () => ({ issues: [{ path: ['coins'] }] })),
      'p1',
      {},
    );
    expect(verdict).toBeInstanceOf(Promise);
    await expect(verdict).resolves.toEqual(['data.coins']);
  });

  it.each([
    [
      'throws',
      () =>
        schema(() => {
          throw new Error('bad value 42');
        }),
    ],
    ['answers no result object', () => schema(() => null)],
    ['answers a string', () => schema(() => 'ok')],
  ])('a schema that %s: Data.InvalidData, its message kept out', (_name, make) => {
    const error = thrown(() => judge(make(), 'p1', {}));
    expect(DataDriverError.is(error, ErrorCode.InvalidData)).toBe(true);
    expect(error.message).toBe(
      'Data.InvalidData: the schema threw while checking the data of p1; the data was neither loaded nor written',
    );
    expect(error.details).toEqual({ key: 'p1' });
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("a schema that throws: its error is the refusal's cause", () => {
    const cause = new Error('bad value 42');
    const error = thrown(() =>
      judge(
        schema(() => {
          throw cause;
        }),
        'p1',
        {},
      ),
    );
    expect(error.cause).toBe(cause);
  });

  it('a schema that answers no result object: the cause says so', () => {
    const error = thrown(() =>
      judge(
        schema(() => null),
        'p1',
        {},
      ),
    );
    expect((error.cause as Error).message).toBe('its validate returned no result object');
  });

  it('an asynchronous schema that rejects: Data.InvalidData', async () => {
    const cause = new Error('bad value 42');
    const verdict = judge(
      schema(() => Promise.reject(cause)),
      'p1',
      {},
    );
    const error = await Promise.resolve(verdict).catch((e: unknown) => e as DataDriverError);
    expect(DataDriverError.is(error, ErrorCode.InvalidData)).toBe(true);
    expect((error as DataDriverError).cause).toBe(cause);
    expect((error as DataDriverError).details).toEqual({ key: 'p1' });
  });
});

describe('schemaRefusal', () => {
  it('names the paths and says what was kept', () => {
    const error = schemaRefusal('p1', ['data.a', 'data.b'], 'nothing was written');
    expect(DataDriverError.is(error, ErrorCode.InvalidData)).toBe(true);
    expect(error.message).toBe(
      'Data.InvalidData: the data of p1 does not match the schema at data.a, data.b; nothing was written',
    );
    expect(error.details).toEqual({ key: 'p1', paths: ['data.a', 'data.b'] });
  });

  it(`names ${MAX_NAMED_PATHS} paths and counts the rest`, () => {
    const paths = Array.from({ length: MAX_NAMED_PATHS + 2 }, (_, i) => `data.f${i}`);
    expect(schemaRefusal('p1', paths, 'kept').message).toBe(
      `Data.InvalidData: the data of p1 does not match the schema at ${paths.slice(0, MAX_NAMED_PATHS).join(', ')} and 2 more; kept`,
    );
    const exactly = paths.slice(0, MAX_NAMED_PATHS);
    expect(schemaRefusal('p1', exactly, 'kept').message).toBe(
      `Data.InvalidData: the data of p1 does not match the schema at ${exactly.join(', ')}; kept`,
    );
  });

  it('enforce throws only for failing paths', () => {
    expect(() => enforce('p1', undefined, 'kept')).not.toThrow();
    expect(
      DataDriverError.is(
        thrown(() => enforce('p1', ['data'], 'kept')),
        ErrorCode.InvalidData,
      ),
    ).toBe(true);
  });
});

const step = (version: number): Migration => ({
  version,
  migrate: (data: JsonObject): JsonObject => ({ ...data, [`v${version}`]: true }),
});

describe('migrations', () => {
  it.each([
    ['ascending', [step(1), step(3)], true],
    ['none', [], true],
    ['a first version of 0', [step(0)], false],
    ['a repeated version', [step(1), step(1)], false],
    ['a descending version', [step(2), step(1)], false],
    ['a version that is no integer', [step(1.5)], false],
    ['a step without migrate', [{ version: 1 }], false],
  ])('%s: valid %s', (_name, steps, valid) => {
    const check = () => checkMigrations(steps as never);
    if (valid) expect(check()).toBe(steps);
    else
      expect(thrown(check).message).toBe(
        'Data.InvalidConfig: migrations must be { version, migrate } steps with ascending positive integer versions',
      );
  });

  it('no steps given: none', () => {
    expect(checkMigrations()).toEqual([]);
  });

  it('the latest schema is the last step, 0 without steps', () => {
    expect(latestSchema([step(1), step(4)])).toBe(4);
    expect(latestSchema([])).toBe(0);
  });

  it('runs the steps newer than the record, in order, on a copy', () => {
    const data = { coins: 1 };
    expect(migrateData('p1', data, 1, [step(1), step(2), step(3)])).toEqual({
      coins: 1,
      v2: true,
      v3: true,
    });
    expect(data).toEqual({ coins: 1 });
    expect(migrateData('p1', data, 3, [step(1), step(2), step(3)])).toBe(data);
  });

  it('a record of a newer schema is refused and left untouched', () => {
    const error = thrown(() => migrateData('p1', {}, 4, [step(1), step(3)]));
    expect(DataDriverError.is(error, ErrorCode.NewerSchema)).toBe(true);
    expect(error.message).toBe(
      "Data.NewerSchema: p1 was written with schema 4, newer than this server's 3; it was left untouched",
    );
    expect(error.details).toEqual({ key: 'p1', schema: 4, latest: 3 });
    expect(migrateData('p1', {}, 3, [step(1), step(3)])).toEqual({});
  });
});
