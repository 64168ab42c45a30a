/**
 * The migration rules (`rules/migrations.ts`) a rolling deploy relies on: the oldest schema
 * that can load the newest, and newer data loaded as it is only when its record says so.
 */
import { describe, expect, it } from 'vitest';
import type { Migration } from '../src/index.js';
import { ErrorCode } from '../src/index.js';
import { checkMigrations, migrateData, oldestCompatible } from '../src/rules/migrations.js';

const step = (version: number, backwardsCompatible?: boolean): Migration => ({
  version,
  migrate: (data) => data,
  ...(backwardsCompatible === undefined ? {} : { backwardsCompatible }),
});

describe('oldestCompatible', () => {
  const rows: Array<[string, Migration[], number]> = [
    ['no migrations: 0', [], 0],
    ['one ordinary step: only its own', [step(1)], 1],
    ['one compatible step: the schema before it', [step(1, true)], 0],
    ['a compatible step after an ordinary one', [step(1), step(2, true)], 1],
    ['a run of compatible steps: before the run', [step(1), step(2, true), step(3, true)], 1],
    ['an ordinary step last: only its own', [step(1, true), step(2)], 2],
    ['gaps in versions: the version before the run', [step(4), step(9, true)], 4],
  ];
  for (const [title, steps, oldest] of rows) {
    it(title, () => expect(oldestCompatible(steps)).toBe(oldest));
  }
});

describe('migrateData with newer data', () => {
  const steps = [step(1)];
  it('loads it as it is when its record says schema 1 can', () => {
    const data = { coins: 1, gems: 2 };
    expect(migrateData('p1', data, 2, steps, 1)).toBe(data);
  });
  for (const [title, compatible] of [
    ['refuses it when only schema 2 can', 2],
    ['refuses it when the record says nothing', undefined],
  ] as const) {
    it(title, () => {
      expect(() => migrateData('p1', {}, 2, steps, compatible)).toThrow(
        expect.objectContaining({ code: ErrorCode.NewerSchema }),
      );
    });
  }
});

describe('checkMigrations: backwardsCompatible', () => {
  it.each([[true], [false], [undefined]])('accepts %s', (flag) => {
    expect(checkMigrations([step(1, flag)])).toHaveLength(1);
  });
  it('refuses one that is not a boolean, naming the step', () => {
    const wrong = { ...step(4), backwardsCompatible: 'yes' } as unknown as Migration;
    expect(() => checkMigrations([step(1), wrong])).toThrow(
      "Data.InvalidConfig: migration 4's backwardsCompatible must be true or false",
    );
  });
});

describe('migrateData: the refusal names the oldest schema that loads it', () => {
  it('with a mark', () => {
    expect(() => migrateData('p1', {}, 3, [step(1)], 2)).toThrow(
      "Data.NewerSchema: p1 was written with schema 3, newer than this server's 1 (it loads on schema 2 and later); it was left untouched",
    );
  });
  it('without one', () => {
    expect(() => migrateData('p1', {}, 3, [step(1)])).toThrow(
      "Data.NewerSchema: p1 was written with schema 3, newer than this server's 1; it was left untouched",
    );
  });
});
