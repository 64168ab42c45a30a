/** What every fuzz run measures: store calls per load, time per load, and the globals. */
import type { Logger, Store } from '@datadriver/core';

/**
 * A load with `lockWaitSeconds: 0` never parks, so it ends after a few store calls: one
 * attempt re-runs at most 8 times (a presence read, trade recoveries), each a call or two.
 * The time bound is generous for a loaded machine; a flood would blow through both.
 */
export const LOAD_BOUND = Object.freeze({ ms: 5_000, storeCalls: 40 });

/** A store that counts the calls through it. */
export function countedStore(inner: Store): { store: Store; calls: () => number } {
  let calls = 0;
  const store: Store = {
    specificationVersion: 'v2',
    ...(inner.maxRecordBytes === undefined ? {} : { maxRecordBytes: inner.maxRecordBytes }),
    update: (key, transform, options) => {
      calls += 1;
      return inner.update(key, transform, options);
    },
    get: (key) => {
      calls += 1;
      return inner.get(key);
    },
  };
  return { store, calls: () => calls };
}

/**
 * The built-in prototypes as they are: every own member's name with its value (or getter and
 * setter), compared by identity, so a run that added, removed or replaced one (a new
 * `Object.prototype.toString`) fails.
 */
export function globalsSnapshot(): ReadonlyArray<readonly [string, unknown, unknown, unknown]> {
  const prototypes = {
    Object: Object.prototype,
    Array: Array.prototype,
    String: String.prototype,
    Function: Function.prototype,
  };
  const members: Array<readonly [string, unknown, unknown, unknown]> = [];
  for (const [owner, target] of Object.entries(prototypes)) {
    for (const name of Reflect.ownKeys(target)) {
      const { value, get, set } = Object.getOwnPropertyDescriptor(target, name) ?? {};
      members.push([`${owner}.prototype.${String(name)}`, value, get, set]);
    }
  }
  members.push(['{} inherits Object.prototype', Object.getPrototypeOf({}), undefined, undefined]);
  members.push(['[] inherits Array.prototype', Object.getPrototypeOf([]), undefined, undefined]);
  return members;
}

/** The fuzz runs' drivers warn a lot, on purpose; none of it is news. */
export function silentLogger(): Logger {
  const quiet = () => undefined;
  return { debug: quiet, info: quiet, warn: quiet, error: quiet };
}
