/**
 * What survives a trip through JSON unchanged: plain objects, dense arrays, strings, finite
 * numbers, booleans and null, nested at most `MAX_DATA_DEPTH` levels. Anything else (a Date,
 * a Map, NaN, undefined, a BigInt, a cycle...) would be changed, dropped or thrown on by
 * `JSON.stringify`, so a save refuses it, and a load refuses a stored record holding it.
 * Pure: a value in, the first problem (with its path) out.
 */

import { DataDriverError, ErrorCode } from '../errors.js';
import { isPlainObject } from '../json.js';

/** How deep data may nest: generous for game data, and far from any stack limit. */
export const MAX_DATA_DEPTH = 64;

export interface JsonProblem {
  /** Where the value is, for example `data.inventory[3].createdAt`. */
  readonly path: string;
  /** What it is, for example `is a Date`. */
  readonly problem: string;
}

/** The first value under `value` that would not survive JSON unchanged, or `undefined`. */
export function findJsonProblem(
  value: unknown,
  root: string,
  maxDepth = MAX_DATA_DEPTH,
): JsonProblem | undefined {
  return walk(value, root, 0, maxDepth, new Set());
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
  return JSON.stringify(data);
}

function walk(
  value: unknown,
  path: string,
  depth: number,
  maxDepth: number,
  ancestors: Set<object>,
): JsonProblem | undefined {
  const scalar = scalarProblem(value);
  if (scalar !== undefined) return scalar === '' ? undefined : { path, problem: scalar };
  const object = value as object;
  if (depth >= maxDepth) return { path, problem: `is nested deeper than ${maxDepth} levels` };
  if (ancestors.has(object)) return { path, problem: 'is circular (it contains itself)' };
  const shape = Array.isArray(object) ? arrayProblem(object) : objectProblem(object);
  if (shape !== undefined) return { path, problem: shape };
  ancestors.add(object);
  try {
    for (const [key, child] of childrenOf(object)) {
      const found = walk(child, pathOf(path, key), depth + 1, maxDepth, ancestors);
      if (found) return found;
    }
    return undefined;
  } finally {
    ancestors.delete(object);
  }
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

function arrayProblem(array: unknown[]): string | undefined {
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

function objectProblem(object: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) return `is a ${kindOf(object)}`;
  for (const key of Reflect.ownKeys(object)) {
    if (typeof key === 'symbol') return `has a symbol key ${String(key)}`;
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor && !('value' in descriptor)) return `has a getter or setter ${key}`;
    if (descriptor && !descriptor.enumerable) return `has a non-enumerable property ${key}`;
  }
  return undefined;
}

function childrenOf(object: object): Iterable<[string | number, unknown]> {
  if (Array.isArray(object)) return object.entries();
  return Object.entries(object);
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
