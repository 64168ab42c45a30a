import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import { endsRetries } from '../src/rules/retries.js';

const typed = (code: ErrorCode) => new DataDriverError(code, 'x');

// Which failures of a write end its retries (a load's attempts, a trade's decision).
const rows: Array<[string, unknown, boolean, boolean]> = [
  ['a store failure: retried', typed(ErrorCode.BackendFailed), false, false],
  ['the store unreachable: retried', typed(ErrorCode.Unavailable), false, false],
  ['throttled: retried', typed(ErrorCode.Throttled), false, false],
  ['a conflict past the store retries: retried', typed(ErrorCode.Conflict), false, false],
  ['an untyped failure: retried', new Error('socket closed'), false, false],
  ['a record the store says is not ours: ends', typed(ErrorCode.InvalidRecord), false, true],
  ['anything the transform threw: ends', typed(ErrorCode.NewerSchema), true, true],
  ['data over the limit, refused by the transform: ends', typed(ErrorCode.TooLarge), true, true],
  ['a migration that threw: ends', new Error('bad step'), true, true],
];

describe('endsRetries', () => {
  it.each(rows)('%s', (_name, error, byTransform, ends) => {
    expect(endsRetries(error, byTransform)).toBe(ends);
  });
});
