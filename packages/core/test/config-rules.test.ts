import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import {
  checkFlag,
  checkImplements,
  checkKnownKeys,
  checkOptionObject,
  checkSeconds,
  describeValue,
  nearestKey,
  sameFields,
} from '../src/rules/config-checks.js';

// What a configuration message says was given ("got a string ("20")").
const values: Array<[unknown, string]> = [
  [null, 'null'],
  [[1], 'an array'],
  ['20', 'a string ("20")'],
  ['x'.repeat(40), `a string ("${'x'.repeat(40)}")`],
  ['x'.repeat(41), `a string ("${'x'.repeat(40)}…")`],
  [5, 'a number (5)'],
  [true, 'a boolean (true)'],
  [2n, 'a bigint (2)'],
  [undefined, 'undefined'],
  [() => 1, 'a function'],
  [Symbol('s'), 'a symbol'],
  [{}, 'an object'],
];

describe('describeValue', () => {
  it.each(values)('%s is %s', (value, described) => {
    expect(describeValue(value)).toBe(described);
  });
});

const known = ['lockTtlSeconds', 'lockWaitSeconds', 'name', 'store'];

describe('nearestKey', () => {
  it.each([
    ['a known key, another case', 'NAME', 'name'],
    ['a prefix of a known key', 'lockTtl', 'lockTtlSeconds'],
    ['a known key with more after it', 'storeOptions', 'store'],
    ['a typo within two edits', 'nmae', 'name'],
    ['a typo within a quarter of a long key', 'lockWaitSecnods', 'lockWaitSeconds'],
    ['the nearest of two', 'lockTtlSecond', 'lockTtlSeconds'],
    ['nothing near', 'presence', undefined],
  ])('%s: %s -> %s', (_name, given, expected) => {
    expect(nearestKey(given, known)).toBe(expected);
  });

  it('no known keys: none', () => {
    expect(nearestKey('name', [])).toBeUndefined();
  });

  it('of two as near, the first known', () => {
    expect(nearestKey('ab', ['ax', 'ay'])).toBe('ax');
  });

  it('three edits from a short key is too far, counted to the last letter', () => {
    expect(nearestKey('abc', ['xyz'])).toBeUndefined();
    expect(nearestKey('abzzz', ['abc'])).toBeUndefined();
    expect(nearestKey('abz', ['abc'])).toBe('abc');
  });
});

function configError(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(DataDriverError.is(error, ErrorCode.InvalidConfig)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('no error');
}

describe('configuration checks', () => {
  it('an unknown key names the nearest known one, with the prefix', () => {
    expect(configError(() => checkKnownKeys({ name: 1, nmae: 2 }, known, 'handoff.'))).toBe(
      'Data.InvalidConfig: unknown option handoff.nmae (did you mean handoff.name?)',
    );
  });

  it('an unknown key near none lists every known one', () => {
    expect(configError(() => checkKnownKeys({ presence: 1 }, ['name', 'store']))).toBe(
      'Data.InvalidConfig: unknown option presence; the options are name, store',
    );
  });

  it('known keys pass', () => {
    expect(() => checkKnownKeys({ name: 1, store: 2 }, known)).not.toThrow();
  });

  it('an option object: a plain object or nothing', () => {
    expect(() => checkOptionObject({}, 'timings', 'an object')).not.toThrow();
    expect(() => checkOptionObject(undefined, 'timings', 'an object')).not.toThrow();
    expect(configError(() => checkOptionObject('20', 'timings', 'an object'))).toBe(
      'Data.InvalidConfig: timings must be an object, got a string ("20")',
    );
  });

  it('an implementation: nothing, or an object with each method', () => {
    const store = { get: () => 1, set: () => 1 };
    expect(() => checkImplements(undefined, 'store', ['get', 'set'])).not.toThrow();
    expect(() => checkImplements(store, 'store', ['get', 'set'])).not.toThrow();
    expect(
      configError(() => checkImplements({ get: () => 1, set: 1 }, 'store', ['get', 'set'])),
    ).toBe('Data.InvalidConfig: store must have get, set, got no set');
    expect(configError(() => checkImplements({}, 'store', ['get', 'set']))).toBe(
      'Data.InvalidConfig: store must have get, set, got no get, set',
    );
    // A function is no implementation, even one carrying the methods.
    const callable = Object.assign(() => 1, store);
    expect(configError(() => checkImplements(callable, 'store', ['get', 'set']))).toBe(
      'Data.InvalidConfig: store must have get, set, got a function',
    );
    expect(configError(() => checkImplements(null, 'store', ['get', 'set']))).toBe(
      'Data.InvalidConfig: store must have get, set, got null',
    );
    expect(configError(() => checkImplements(5, 'store', ['get']))).toBe(
      'Data.InvalidConfig: store must have get, got a number (5)',
    );
  });
});

describe('checkFlag', () => {
  it.each([
    [undefined, false],
    [false, false],
    [true, true],
  ])('%s is %s', (value, flag) => {
    expect(checkFlag('handOverLocks', value)).toBe(flag);
  });

  it.each([
    ['true', 'a string ("true")'],
    [1, 'a number (1)'],
    [null, 'null'],
  ])('%j is refused, naming the option and what it got', (value, got) => {
    expect(configError(() => checkFlag('handOverLocks', value))).toBe(
      `Data.InvalidConfig: handOverLocks must be true or false, got ${got}`,
    );
  });
});

describe('checkSeconds', () => {
  it.each([
    [undefined, false, 30],
    [undefined, true, 30],
    [0, false, 0],
    [0.5, true, 0.5],
    [12, false, 12],
  ])('%s (positive: %s) is %s, the fallback 30 when unset', (value, positive, seconds) => {
    expect(checkSeconds('autosaveSeconds', value, 30, positive)).toBe(seconds);
  });

  it('is not positive unless asked: 0 passes by default', () => {
    expect(checkSeconds('autosaveSeconds', 0, 30)).toBe(0);
  });

  it('null is unset, as undefined: the fallback', () => {
    expect(checkSeconds('autosaveSeconds', null, 30, true)).toBe(30);
  });

  it.each([
    [0, true, 'positive', 'a number (0)'],
    [-1, false, 'non-negative', 'a number (-1)'],
    [-0.001, true, 'positive', 'a number (-0.001)'],
    [Number.NaN, false, 'non-negative', 'a number (NaN)'],
    [Number.POSITIVE_INFINITY, false, 'non-negative', 'a number (Infinity)'],
    ['20', false, 'non-negative', 'a string ("20")'],
    [true, false, 'non-negative', 'a boolean (true)'],
  ])('%s (positive: %s) is refused as not a %s number, got %s', (value, positive, kind, got) => {
    expect(configError(() => checkSeconds('autosaveSeconds', value, 30, positive))).toBe(
      `Data.InvalidConfig: autosaveSeconds must be a ${kind} number of seconds, got ${got}`,
    );
  });

  it('a fallback that is no number of seconds is refused too, as got undefined', () => {
    expect(configError(() => checkSeconds('autosaveSeconds', undefined, -1))).toBe(
      'Data.InvalidConfig: autosaveSeconds must be a non-negative number of seconds, got undefined',
    );
  });
});

describe('sameFields', () => {
  it.each([
    [{ a: 1, b: 'x' }, { a: 1, b: 'x' }, true],
    [{ a: 1, b: 'x' }, { a: 1, b: 'y' }, false],
    [{ a: 1, b: 'x' }, { a: 2, b: 'y' }, false],
    [{}, { a: 1 }, true],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameFields(a as object, b as object)).toBe(same);
  });
});
