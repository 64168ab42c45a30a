import { DataDriverError, ErrorCode } from '@datadriver/core';
import { expect } from 'vitest';

/** Takes a backend away from an adapter and gives it back. */
export interface Outage {
  stop(): Promise<void>;
  start(): Promise<void>;
}

const backendCodes: readonly string[] = [
  ErrorCode.Unavailable,
  ErrorCode.BackendFailed,
  ErrorCode.Timeout,
];

/** A backend fault must surface as a DataDriverError with a backend code and its cause. */
export function expectTyped(failure: unknown): void {
  expect(
    DataDriverError.isInstance(failure),
    `expected a DataDriverError, got ${String(failure)}`,
  ).toBe(true);
  const error = failure as DataDriverError;
  expect(backendCodes).toContain(error.code);
  expect(error.cause).toBeDefined();
}

/** Retries `call` until it resolves (a client reconnects after an outage), for up to `limitMs`. */
export async function eventually<T>(call: () => Promise<T>, limitMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() - started > limitMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
