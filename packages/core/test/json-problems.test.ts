import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import { findJsonProblem, serializeData } from '../src/rules/index.js';

class Item {}
const nameless = Object.create(Object.create(null, { constructor: { value: { name: '' } } }));
const unnamed = Object.create(Object.create(null, { constructor: { value: {} } }));
const throwing = Object.create(
  Object.create(null, {
    constructor: {
      get() {
        throw new Error('no constructor');
      },
    },
  }),
);
// A hole, made without a sparse literal.
const holed = [1, 2, 3];
delete holed[1];
const extra = Object.assign([1, 2], { note: 'x' });
const getter = Object.defineProperty({}, 'coins', { get: () => 1, enumerable: true });
const hidden = Object.defineProperty({}, 'coins', { value: 1, enumerable: false });
const setter = Object.defineProperty({}, 'coins', { set: () => undefined, enumerable: true });
// An accessor with neither function: it reads as undefined, like a data property holding it.
const bare = Object.defineProperty({}, 'coins', { get: undefined, enumerable: true });
const hiddenGetter = Object.defineProperty({}, 'coins', { get: () => 1, enumerable: false });
// JSON.parse makes "__proto__" an own data property; Object.prototype's accessor is not it.
const ownProto = JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as object;

// What JSON would change, at its path: the table of what a save refuses and a load rejects.
const rows: Array<[string, unknown, string | undefined]> = [
  ['a plain object of scalars', { a: 'x', b: true, c: 1.5, d: null, e: [1, { f: 2 }] }, undefined],
  ['an object without a prototype', { a: Object.create(null) }, undefined],
  ['NaN', { a: Number.NaN }, 'data.a is NaN'],
  ['Infinity', { a: Number.POSITIVE_INFINITY }, 'data.a is Infinity'],
  ['undefined', { a: undefined }, 'data.a is undefined'],
  ['a BigInt', { a: 1n }, 'data.a is a BigInt'],
  ['a symbol', { a: Symbol('s') }, 'data.a is a symbol'],
  ['a function', { a: () => 1 }, 'data.a is a function'],
  ['a Date', { a: new Date(0) }, 'data.a is a Date'],
  ['a class instance', { a: new Item() }, 'data.a is a Item'],
  [
    'a prototype with a nameless constructor',
    { a: nameless },
    'data.a is a object with a custom prototype',
  ],
  ['a constructor without a name', { a: unnamed }, 'data.a is a object with a custom prototype'],
  [
    'a prototype whose constructor throws',
    { a: throwing },
    'data.a is a object with a custom prototype',
  ],
  ['a typed array', { a: new Uint8Array(1) }, 'data.a is a Uint8Array'],
  ['an array subclass', { a: new (class List extends Array {})() }, 'data.a is a List'],
  ['an array with a hole', { a: holed }, 'data.a has a hole at index 1'],
  ['an array with a property', { a: extra }, 'data.a has properties besides its elements'],
  ['a symbol key', { a: { [Symbol('k')]: 1 } }, 'data.a has a symbol key Symbol(k)'],
  // The keys' problems in `Reflect.ownKeys` order (string keys, then symbols), before any value's.
  [
    'a symbol key and a non-enumerable property',
    { a: Object.defineProperty({ [Symbol('k')]: 1 }, 'c', { value: 1, enumerable: false }) },
    'data.a has a non-enumerable property c',
  ],
  [
    'a symbol key and an undefined field',
    { a: { b: undefined, [Symbol('k')]: 1 } },
    'data.a has a symbol key Symbol(k)',
  ],
  ['a getter', { a: getter }, 'data.a has a getter or setter coins'],
  ['a non-enumerable property', { a: hidden }, 'data.a has a non-enumerable property coins'],
  ['a setter alone', { a: setter }, 'data.a has a getter or setter coins'],
  ['an accessor with neither function', { a: bare }, 'data.a has a getter or setter coins'],
  ['a non-enumerable getter', { a: hiddenGetter }, 'data.a has a getter or setter coins'],
  ['an own "__proto__" data property', { a: ownProto }, undefined],
  ['a proxy of a plain object', { a: new Proxy({ b: 1 }, {}) }, undefined],
  ['a proxy hiding a getter', { a: new Proxy(getter, {}) }, 'data.a has a getter or setter coins'],
  ['deep in an array', { a: [0, [1, { 'b c': new Map() }]] }, 'data.a[1][1]["b c"] is a Map'],
  ['the first of two problems', { a: 1, b: Number.NaN, c: undefined }, 'data.b is NaN'],
];

describe('findJsonProblem', () => {
  it.each(rows)('%s', (_name, value, expected) => {
    const found = findJsonProblem(value, 'data');
    expect(found && `${found.path} ${found.problem}`).toBe(expected);
  });

  it('a scalar JSON cannot hold is named for what it is, even at the depth limit', () => {
    expect(findJsonProblem({ a: 1n }, 'data', 1)).toEqual({
      path: 'data.a',
      problem: 'is a BigInt',
    });
  });

  it("an object that is not plain is named from its prototype alone: its keys are never listed (a Buffer's millions of indices)", () => {
    let listed = 0;
    const counted = new Proxy(new Map(), {
      ownKeys(target) {
        listed += 1;
        return Reflect.ownKeys(target);
      },
    });
    expect(findJsonProblem({ a: counted, b: Buffer.alloc(4_000_000) }, 'data')).toEqual({
      path: 'data.a',
      problem: 'is a Map',
    });
    expect(findJsonProblem({ b: Buffer.alloc(4_000_000) }, 'data')?.problem).toBe('is a Buffer');
    expect(listed).toBe(0);
  });

  it('a cycle is named where it closes', () => {
    const data: Record<string, unknown> = { a: { b: 1 } };
    (data.a as Record<string, unknown>).c = data;
    expect(findJsonProblem(data, 'data')).toEqual({
      path: 'data.a.c',
      problem: 'is circular (it contains itself)',
    });
  });

  it('the same object twice, not nested in itself, is no cycle', () => {
    const shared = { coins: 1 };
    expect(findJsonProblem({ a: shared, b: [shared] }, 'data')).toBeUndefined();
  });

  it("a walk that threw (a proxy's trap) leaves no ancestor for the next walk to trip on", () => {
    let throws = true;
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          if (!throws) return Object.prototype;
          throws = false;
          throw new Error('trap');
        },
      },
    );
    const root = { inner: { k: trap } };
    expect(() => findJsonProblem(root, 'data')).toThrow('trap');
    // Left over from the walk that threw, `root` would read as its own ancestor here.
    expect(findJsonProblem(root, 'data')).toBeUndefined();
  });

  it("a walk inside a walk (a proxy's trap) keeps both walks' ancestors apart", () => {
    const nested: Array<ReturnType<typeof findJsonProblem>> = [];
    const looped: Record<string, unknown> = { n: 1 };
    looped.self = looped;
    const walker = new Proxy(
      {},
      {
        getPrototypeOf() {
          nested.push(findJsonProblem(looped, 'inner'), findJsonProblem({ n: 1 }, 'clean'));
          return Object.prototype;
        },
      },
    );
    const outer: Record<string, unknown> = { walker };
    outer.back = outer;
    expect(findJsonProblem(outer, 'data')).toEqual({
      path: 'data.back',
      problem: 'is circular (it contains itself)',
    });
    expect(nested).toEqual([
      { path: 'inner.self', problem: 'is circular (it contains itself)' },
      undefined,
    ]);
  });

  it('nesting is cut at the depth given: at it, not one level before', () => {
    expect(findJsonProblem({ a: { b: 1 } }, 'data', 2)).toBeUndefined();
    expect(findJsonProblem({ a: [[1]] }, 'data', 2)).toEqual({
      path: 'data.a[0]',
      problem: 'is nested deeper than 2 levels',
    });
    expect(findJsonProblem({ a: { b: {} } }, 'data', 2)).toEqual({
      path: 'data.a.b',
      problem: 'is nested deeper than 2 levels',
    });
  });
});

describe('serializeData', () => {
  it('writes the JSON of data JSON keeps', () => {
    expect(serializeData('p1', { a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });

  it.each([
    ['a value JSON would change', { a: { b: new Date(0) } }, 'data.a.b', 'data.a.b is a Date'],
    ['data that is not a plain object', [1], 'data', 'data is not a plain object'],
  ])('%s: Data.InvalidData naming its path, nothing written', (_name, data, path, problem) => {
    let thrown: unknown;
    try {
      serializeData('p1', data);
    } catch (error) {
      thrown = error;
    }
    expect(DataDriverError.is(thrown, ErrorCode.InvalidData)).toBe(true);
    expect((thrown as DataDriverError).message).toBe(
      `Data.InvalidData: the data of p1 cannot be saved: ${problem}; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON; nothing was written`,
    );
    expect((thrown as DataDriverError).details).toEqual({ key: 'p1', path });
  });
});
