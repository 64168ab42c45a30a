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
    specificationVersion: 'v1',
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

/** The shape of the built-in prototypes: a run that changed one fails. */
export function globalsSnapshot(): readonly string[] {
  const names = (target: object) => Reflect.ownKeys(target).map(String).sort().join(',');
  return [
    names(Object.prototype),
    names(Array.prototype),
    names(String.prototype),
    String(Object.getPrototypeOf({}) === Object.prototype),
    String(Object.getPrototypeOf([]) === Array.prototype),
  ];
}

/** The fuzz runs' drivers warn a lot, on purpose; none of it is news. */
export function silentLogger(): Logger {
  const quiet = () => undefined;
  return { debug: quiet, info: quiet, warn: quiet, error: quiet };
}
