/**
 * `copyWith` (`ports/copy-with.ts`) builds what a spread builds: the same own keys, in the same
 * order, the later object's value winning, symbols copied, neither input changed. What it is for
 * (a copy that gains keys without V8's slow path) is measured, not asserted here:
 * `bench/scripts/spread-cost.mjs` prints both ways' cost.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { copyWith } from '../src/ports/copy-with.js';

const tag = Symbol('tag');

const cases: ReadonlyArray<readonly [string, object, object]> = [
  ['new keys after the base', { type: 'a', key: 'k' }, { time: 1, jobId: 'j' }],
  [
    'a key of both: the fields win, in the base key place',
    { T: 'Q', S: 'old', K: 'k' },
    { S: 'new' },
  ],
  ['empty fields', { T: 'R', D: 'PlayerData' }, {}],
  ['empty base', {}, { H: 'token' }],
  ['an undefined value is a key', { a: 1 }, { expected: undefined }],
  ['a symbol key', { [tag]: 1, a: 2 }, { b: 3 }],
  ['nested objects are shared, not copied', { nested: { deep: 1 } }, { more: [1, 2] }],
];

describe('copyWith', () => {
  it.each(cases)('%s: equals the spread', (_name, base, fields) => {
    const before = [structuredClone(Object.entries(base)), structuredClone(Object.entries(fields))];
    const copy = copyWith(base, fields);
    const spread = { ...base, ...fields };
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys(spread));
    for (const key of Reflect.ownKeys(spread)) {
      expect((copy as Record<PropertyKey, unknown>)[key]).toBe(
        (spread as Record<PropertyKey, unknown>)[key],
      );
    }
    expect(JSON.stringify(copy)).toBe(JSON.stringify(spread));
    expect(copy).not.toBe(base);
    expect([Object.entries(base), Object.entries(fields)]).toEqual(before);
  });

  it('makes a plain object, whatever the base is', () => {
    class Base {
      readonly a = 1;
    }
    const copy = copyWith(new Base(), { b: 2 });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: 1, b: 2 });
  });

  it('keeps each member of a union its own keys, as a spread does', () => {
    type Event = { type: 'a'; a: number } | { type: 'b'; b: string; id: string };
    const events: Event[] = [
      { type: 'a', a: 1 },
      { type: 'b', b: 'x', id: 'old' },
    ];
    const copies = events.map((event) => copyWith(event, { id: 7 }));
    expect(copies).toEqual([
      { type: 'a', a: 1, id: 7 },
      { type: 'b', b: 'x', id: 7 },
    ]);
    const copy = copies[1];
    if (copy?.type === 'b') {
      expectTypeOf(copy.b).toEqualTypeOf<string>();
      expectTypeOf(copy.id).toEqualTypeOf<number>();
    } else throw new Error('the second copy is the b');
  });
});
