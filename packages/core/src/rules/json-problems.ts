/**
 * What survives a trip through JSON unchanged: plain objects, dense arrays, strings, finite
 * numbers, booleans and null, nested at most `MAX_DATA_DEPTH` levels. Anything else (a Date,
 * a Map, NaN, undefined, a BigInt, a cycle...) would be changed, dropped or thrown on by
 * `JSON.stringify`, so a save refuses it, and a load refuses a stored record holding it.
 * Pure: a value in, the first problem (with its path) out.
 */

import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { isPlainObject } from '../ports/json.js';

/** How deep data may nest: generous for game data, and far from any stack limit. */
export const MAX_DATA_DEPTH = 64;

export interface JsonProblem {
  /** Where the value is, for example `data.inventory[3].createdAt`. */
  readonly path: string;
  /** What it is, for example `is a Date`. */
  readonly problem: string;
}

/**
 * The list of ancestors the next walk uses, unless a walk is using it (see `findJsonProblem`).
 * Shared by every driver of the process: safe because a walk runs to its end in one go (it
 * awaits nothing); a walk that awaited would have to make its own.
 */
let spareAncestors: object[] | undefined = [];

/** The first value under `value` that would not survive JSON unchanged, or `undefined`. */
export function findJsonProblem(
  value: unknown,
  root: string,
  maxDepth = MAX_DATA_DEPTH,
): JsonProblem | undefined {
  // The walk's ancestors (for cycles) in a list kept between walks: a new list's first push
  // made a backing store of 17 slots, on every save. A walk inside a walk (a proxy's trap that
  // saves) finds it taken and makes its own.
  const ancestors = spareAncestors ?? [];
  spareAncestors = undefined;
  let found: Found | undefined;
  try {
    found = problemIn(value, 0, maxDepth, ancestors);
  } finally {
    // A walk that threw (a proxy's trap) left its path: emptied by pops, which keep the store.
    while (ancestors.length > 0) ancestors.pop();
    spareAncestors = ancestors;
  }
  if (found === undefined) return undefined;
  let path = root;
  for (let index = found.keys.length - 1; index >= 0; index -= 1) {
    path = pathOf(path, found.keys[index] as string | number);
  }
  return { path, problem: found.problem };
}

/** `problem` as one sentence: the path, what it is, and what is allowed. */
export function describeJsonProblem(problem: JsonProblem): string {
  return `${problem.path} ${problem.problem}; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON`;
}

/**
 * The JSON a write of `data` sends, or `Data.InvalidData` naming the first value JSON would
 * change, before anything is written: `data.inventory[3].createdAt is a Date`.
 */
export function serializeData(key: string, data: unknown): string {
  checkData(key, data);
  return JSON.stringify(data);
}

/**
 * `Data.InvalidData` naming the first value JSON would change, as `serializeData` throws it,
 * without making the JSON: for a check whose write makes its own later.
 */
export function checkData(key: string, data: unknown): void {
  const problem = isPlainObject(data)
    ? findJsonProblem(data, 'data')
    : { path: 'data', problem: 'is not a plain object' };
  if (problem) {
    throw new DataDriverError(
      ErrorCode.InvalidData,
      `the data of ${key} cannot be saved: ${describeJsonProblem(problem)}; nothing was written`,
      { details: { key, path: problem.path } },
    );
  }
}

/**
 * A problem and the keys that lead to it, innermost first. The path is spelled only once a
 * problem is found: every save walks the data, and nearly every walk finds nothing.
 */
interface Found {
  readonly problem: string;
  readonly keys: Array<string | number>;
}

function problemIn(
  value: unknown,
  depth: number,
  maxDepth: number,
  ancestors: object[],
): Found | undefined {
  const scalar = scalarProblem(value);
  if (scalar !== undefined) return scalar === '' ? undefined : { problem: scalar, keys: [] };
  const object = value as object;
  if (depth >= maxDepth) return { problem: `is nested deeper than ${maxDepth} levels`, keys: [] };
  if (ancestors.includes(object)) return { problem: 'is circular (it contains itself)', keys: [] };
  ancestors.push(object);
  const found = Array.isArray(object)
    ? problemInArray(object, depth, maxDepth, ancestors)
    : problemInObject(object, depth, maxDepth, ancestors);
  ancestors.pop();
  return found;
}

function problemInArray(
  array: readonly unknown[],
  depth: number,
  maxDepth: number,
  ancestors: object[],
): Found | undefined {
  const shape = arrayProblem(array);
  if (shape !== undefined) return { problem: shape, keys: [] };
  for (let index = 0; index < array.length; index += 1) {
    const found = problemIn(array[index], depth + 1, maxDepth, ancestors);
    if (found) {
      found.keys.push(index);
      return found;
    }
  }
  return undefined;
}

/**
 * A plain object's problem: its prototype first (a Buffer's millions of indices are never
 * listed), then its own keys, listed once (string keys, then symbols): only enumerable data
 * fields named by strings survive JSON, and those fields are walked in `Object.keys` order.
 */
function problemInObject(
  object: object,
  depth: number,
  maxDepth: number,
  ancestors: object[],
): Found | undefined {
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) {
    return { problem: `is a ${kindOf(object)}`, keys: [] };
  }
  // `Reflect.ownKeys` in two lists: the string keys (names), which V8 keeps cached with the
  // object's shape, then its symbols. One list of both was not cached: a third of a 16 KB save.
  const keys = Object.getOwnPropertyNames(object);
  const shape = keysProblem(object, keys) ?? symbolsProblem(object);
  if (shape !== undefined) return { problem: shape, keys: [] };
  const fields = object as Record<string, unknown>;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const found = problemIn(fields[key], depth + 1, maxDepth, ancestors);
    if (found) {
      found.keys.push(key);
      return found;
    }
  }
  return undefined;
}

/** '' for a JSON scalar, a problem for a value JSON cannot hold, undefined for an object. */
function scalarProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return '';
    case 'number':
      if (Number.isFinite(value)) return '';
      return Number.isNaN(value) ? 'is NaN' : `is ${String(value)}`;
    case 'undefined':
      return 'is undefined';
    case 'bigint':
      return 'is a BigInt';
    case 'symbol':
      return 'is a symbol';
    case 'function':
      return 'is a function';
    default:
      return value === null ? '' : undefined;
  }
}

function arrayProblem(array: readonly unknown[]): string | undefined {
  if (Object.getPrototypeOf(array) !== Array.prototype) return `is a ${kindOf(array)}`;
  // An array holds its indices and `length`; anything else is dropped by JSON.
  if (Reflect.ownKeys(array).length !== array.length + 1) {
    for (let index = 0; index < array.length; index += 1) {
      if (!Object.hasOwn(array, index)) return `has a hole at index ${index}`;
    }
    return 'has properties besides its elements';
  }
  return undefined;
}

/**
 * A problem among a plain object's own string `keys` (`Object.getOwnPropertyNames`): only
 * enumerable data fields survive.
 */
function keysProblem(object: object, keys: readonly string[]): string | undefined {
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor && !('value' in descriptor)) return `has a getter or setter ${key}`;
    if (descriptor && !descriptor.enumerable) return `has a non-enumerable property ${key}`;
  }
  return undefined;
}

/**
 * A plain object's first symbol key, which JSON drops: asked after its string keys, the order
 * in which `Reflect.ownKeys` lists them.
 */
function symbolsProblem(object: object): string | undefined {
  const symbols = Object.getOwnPropertySymbols(object);
  return symbols.length === 0 ? undefined : `has a symbol key ${String(symbols[0])}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** A readable name for an object that is not plain: `Date`, `Map`, `class Item`. */
function kindOf(object: object): string {
  try {
    const name: unknown = Object.getPrototypeOf(object)?.constructor?.name;
    return typeof name === 'string' && name !== '' ? name : 'object with a custom prototype';
  } catch {
    return 'object with a custom prototype';
  }
}
