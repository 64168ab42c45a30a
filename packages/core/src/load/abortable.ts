/**
 * A load its caller can abort (`load(key, { signal })`). The caller hears `Data.Aborted` at the
 * abort, wherever the load is: waiting on this server, parked on another server's lock, or in a
 * store call. The load itself stops at its next step without taking the lock; a take that was
 * already on its way and lands anyway is given straight back, so an aborted load never leaves a
 * lock behind that nobody will release.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';

/** What `load`'s `signal` must be: an `AbortSignal`, or anything with its two members. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Refuses a `signal` option that is not an AbortSignal (a wrong type from JavaScript). */
export function checkSignal(signal: unknown): asserts signal is AbortSignalLike {
  const candidate = signal as Partial<AbortSignalLike> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.aborted !== 'boolean' ||
    typeof candidate.addEventListener !== 'function' ||
    typeof candidate.removeEventListener !== 'function'
  ) {
    throw new DataDriverError(ErrorCode.InvalidArgument, 'signal must be an AbortSignal');
  }
}

export function abortedError(key: string, signal: AbortSignalLike): DataDriverError {
  return new DataDriverError(ErrorCode.Aborted, `the load of ${key} was aborted`, {
    cause: signal.reason,
    details: { key },
  });
}

/**
 * `work`'s outcome, unless `signal` aborts first: then `Data.Aborted` at once, `onAbort` runs
 * (to wake the load's waits), and a `work` that still resolves is handed to `giveBack`.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignalLike,
  key: string,
  hooks: { onAbort: () => void; giveBack: (late: T) => void },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const abort = (): void => {
      if (settled) return;
      settled = true;
      reject(abortedError(key, signal));
      hooks.onAbort();
      // The load stops at its next step; its own failure is expected and already reported.
      work.then(hooks.giveBack, () => undefined);
    };
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}
