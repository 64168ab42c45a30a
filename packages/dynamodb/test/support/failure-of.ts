import { DataDriverError } from '@datadriver/core';
import { expect } from 'vitest';

/** The DataDriverError `promise` rejects with; fails the test on any other outcome. */
export async function failureOf(promise: Promise<unknown>): Promise<DataDriverError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(
    DataDriverError.isInstance(failure),
    `expected a DataDriverError, got ${String(failure)}`,
  ).toBe(true);
  return failure as DataDriverError;
}
