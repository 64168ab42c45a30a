import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import {
  checkCreatedId,
  checkProfileKey,
  checkStoreKey,
  isDriverName,
  keysOf,
  MAX_NAME_BYTES,
  MAX_TOKEN_BYTES,
} from '../src/rules/keys.js';
import { checkWritable, fillDefaults, parseRecord, toStoreRecord } from '../src/rules/record.js';
import { releasedRecord } from '../src/rules/record-writes.js';

function thrown(run: () => unknown): DataDriverError {
  try {
    run();
  } catch (error) {
    return error as DataDriverError;
  }
  throw new Error('nothing thrown');
}

const lock = { jobId: 'A', token: 't', time: 1, presence: true };
const marker = { id: 'x1', journal: 'J#trade/x1', version: 3 };

// A stored value that is not a record core can read: refused with what is wrong, untouched.
const records: Array<[string, unknown, string | undefined]> = [
  [
    'a record with every part',
    {
      data: {},
      meta: { version: 3, lock, releasedToken: 'r', trade: marker, schema: 2, userIds: ['u'] },
    },
    undefined,
  ],
  ['not an object', 5, 'is not a DataDriver record'],
  ['no data', { meta: { version: 1 } }, 'is not a DataDriver record'],
  ['no meta', { data: {} }, 'is not a DataDriver record'],
  [
    'data JSON would change',
    { data: { a: Number.NaN }, meta: { version: 1 } },
    'holds data.a is NaN; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON',
  ],
  [
    'meta JSON would change',
    { data: {}, meta: { version: 1, x: Number.NaN } },
    'holds meta.x is NaN; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON',
  ],
  [
    'a version past MAX_SAFE_INTEGER',
    { data: {}, meta: { version: 2 ** 53 } },
    'has a meta.version past Number.MAX_SAFE_INTEGER',
  ],
  ['no version', { data: {}, meta: {} }, 'has no meta.version (a non-negative integer)'],
  [
    'a negative version',
    { data: {}, meta: { version: -1 } },
    'has no meta.version (a non-negative integer)',
  ],
  ['a record at version 0', { data: {}, meta: { version: 0 } }, undefined],
  [
    'a record at MAX_SAFE_INTEGER',
    { data: {}, meta: { version: Number.MAX_SAFE_INTEGER } },
    undefined,
  ],
  [
    'a lock not an object',
    { data: {}, meta: { version: 1, lock: 'A' } },
    'has a malformed meta.lock',
  ],
  [
    'a lock without a server',
    { data: {}, meta: { version: 1, lock: { ...lock, jobId: '' } } },
    'has a malformed meta.lock',
  ],
  [
    'a lock without a token',
    { data: {}, meta: { version: 1, lock: { ...lock, token: 5 } } },
    'has a malformed meta.lock',
  ],
  [
    'a lock without a time',
    { data: {}, meta: { version: 1, lock: { ...lock, time: 'now' } } },
    'has a malformed meta.lock',
  ],
  [
    'a lock without presence',
    { data: {}, meta: { version: 1, lock: { ...lock, presence: 'yes' } } },
    'has a malformed meta.lock',
  ],
  [
    'a released token not a string',
    { data: {}, meta: { version: 1, releasedToken: 5 } },
    'has a meta.releasedToken that is not a string',
  ],
  [
    'a marker without a version',
    { data: {}, meta: { version: 1, trade: { ...marker, version: -1 } } },
    'has a malformed meta.trade',
  ],
  [
    'a marker without a journal',
    { data: {}, meta: { version: 1, trade: { ...marker, journal: '' } } },
    'has a malformed meta.trade',
  ],
  [
    'a marker without an id',
    { data: {}, meta: { version: 1, trade: { ...marker, id: 5 } } },
    'has a malformed meta.trade',
  ],
  [
    'a marker not an object',
    { data: {}, meta: { version: 1, trade: 'x1' } },
    'has a malformed meta.trade',
  ],
  [
    'a schema not a count',
    { data: {}, meta: { version: 1, schema: 1.5 } },
    'has a meta.schema that is not a non-negative integer',
  ],
  [
    'user ids not a list',
    { data: {}, meta: { version: 1, userIds: 'u' } },
    'has a meta.userIds that is not a list of strings',
  ],
  [
    'user ids not all strings',
    { data: {}, meta: { version: 1, userIds: ['u', 5] } },
    'has a meta.userIds that is not a list of strings',
  ],
  [
    'a compatible schema mark',
    { data: {}, meta: { version: 1, schema: 3, compatible: 1 } },
    undefined,
  ],
  [
    'a compatible mark that is a string',
    { data: {}, meta: { version: 1, compatible: '1' } },
    'has a meta.compatible that is not a non-negative integer',
  ],
  [
    'a negative compatible mark',
    { data: {}, meta: { version: 1, compatible: -1 } },
    'has a meta.compatible that is not a non-negative integer',
  ],
];

describe('parseRecord', () => {
  it.each(records)('%s', (_name, value, problem) => {
    const parse = () => parseRecord('P/u1', value as never);
    if (problem === undefined) {
      expect(parse()).toBe(value);
      return;
    }
    const error = thrown(parse);
    expect(DataDriverError.is(error, ErrorCode.InvalidRecord)).toBe(true);
    expect(error.message).toBe(
      `Data.InvalidRecord: the value stored under P/u1 ${problem}; it was left untouched`,
    );
    expect(error.details).toEqual({ key: 'P/u1' });
  });

  it('no value: no record', () => {
    expect(parseRecord('P/u1', undefined)).toBeUndefined();
  });
});

describe('record writes', () => {
  it('a release of no stored record writes version 1 with the token', () => {
    expect(releasedRecord(undefined, { coins: 1 }, 'tA')).toStrictEqual({
      data: { coins: 1 },
      meta: { version: 1, releasedToken: 'tA' },
    });
  });

  it('a default is an ordinary field: written over, deleted', () => {
    const filled = fillDefaults({}, { coins: 0 }) as Record<string, unknown>;
    filled.coins = 5;
    expect(filled.coins).toBe(5);
    delete filled.coins;
    expect(filled).toStrictEqual({});
  });
});

describe('checkWritable', () => {
  it('a record parseRecord would read back passes as it is', () => {
    const record = { data: {}, meta: { version: 2 } };
    expect(checkWritable('u1', record)).toBe(record);
    expect(toStoreRecord(record)).toBe(record);
  });

  it('a version past MAX_SAFE_INTEGER writes nothing', () => {
    const error = thrown(() => checkWritable('u1', { data: {}, meta: { version: 2 ** 53 } }));
    expect(DataDriverError.is(error, ErrorCode.InvalidRecord)).toBe(true);
    expect(error.message).toBe(
      'Data.InvalidRecord: the record of u1 would have a meta.version past Number.MAX_SAFE_INTEGER; nothing was written',
    );
    expect(error.details).toEqual({ key: 'u1' });
  });
});

describe('keys at the entries', () => {
  it("a driver's keys are its name's", () => {
    const keys = keysOf('P');
    expect([keys.store('u1'), keys.journal('t1'), keys.inbox('u1')]).toEqual([
      'P/u1',
      'P#trade/t1',
      'P#inbox/u1',
    ]);
  });

  it('a store key must be a string, named in the message', () => {
    const error = thrown(() => checkStoreKey(5));
    expect(DataDriverError.is(error, ErrorCode.InvalidArgument)).toBe(true);
    expect(error.message).toBe('Data.InvalidArgument: a store key must be a string');
    expect(error.details).toEqual({ key: 5 });
    expect(thrown(() => checkProfileKey(5)).message).toBe(
      'Data.InvalidArgument: a profile key must be a string',
    );
    expect(() => checkStoreKey('')).not.toThrow();
  });

  it('a store key of ill-formed UTF-16 is refused, naming it', () => {
    const error = thrown(() => checkStoreKey('a\uD800', 'a journal key'));
    expect(DataDriverError.is(error, ErrorCode.InvalidArgument)).toBe(true);
    expect(error.message).toBe(
      'Data.InvalidArgument: a journal key "a\\ud800" is not well-formed UTF-16 (it holds a lone surrogate), so a backend would store it as another key; nothing was read or written',
    );
    expect(error.details).toEqual({ key: 'a\uD800' });
  });

  it('a profile key: non-empty, and at most MAX_NAME_BYTES on the wire', () => {
    expect(thrown(() => checkProfileKey('')).message).toBe(
      'Data.InvalidArgument: a profile key must be a non-empty string',
    );
    const error = thrown(() => checkProfileKey('k'.repeat(MAX_NAME_BYTES + 1)));
    expect(DataDriverError.is(error, ErrorCode.InvalidArgument)).toBe(true);
    expect(error.message).toBe(
      `Data.InvalidArgument: a profile key is ${MAX_NAME_BYTES + 1} bytes as JSON (UTF-8), over the ${MAX_NAME_BYTES} a handoff message leaves it (MAX_NAME_BYTES); nothing was read or written`,
    );
    expect(error.details).toEqual({ maxBytes: MAX_NAME_BYTES });
    expect(() => checkProfileKey('k'.repeat(MAX_NAME_BYTES))).not.toThrow();
  });

  it.each([
    ['a token', 'tok-1', undefined],
    [
      'empty',
      '',
      'Data.InvalidConfig: createId must return a non-empty string of well-formed UTF-16',
    ],
    [
      'not a string',
      5,
      'Data.InvalidConfig: createId must return a non-empty string of well-formed UTF-16',
    ],
    [
      'a lone surrogate',
      '\uD800',
      'Data.InvalidConfig: createId must return a non-empty string of well-formed UTF-16',
    ],
    ['at the limit', 'x'.repeat(MAX_TOKEN_BYTES), undefined],
    [
      'past the limit',
      'x'.repeat(MAX_TOKEN_BYTES + 1),
      `Data.InvalidConfig: an id from createId is ${MAX_TOKEN_BYTES + 1} bytes as JSON (UTF-8), over the ${MAX_TOKEN_BYTES} a handoff message leaves it (MAX_TOKEN_BYTES)`,
    ],
  ])('an id from createId, %s', (_name, id, message) => {
    if (message === undefined) {
      expect(checkCreatedId(id)).toBe(id);
      return;
    }
    const error = thrown(() => checkCreatedId(id));
    expect(DataDriverError.is(error, ErrorCode.InvalidConfig)).toBe(true);
    expect(error.message).toBe(message);
    if (typeof id === 'string' && id.length > MAX_TOKEN_BYTES) {
      expect(error.details).toEqual({ maxBytes: MAX_TOKEN_BYTES });
    }
  });

  it.each([
    ['PlayerData', true],
    ['Player Data 2', true],
    ['', false],
    ['a/b', false],
    ['a#b', false],
    ['\uD800', false],
    [5, false],
  ])('%j names a driver: %s', (name, valid) => {
    expect(isDriverName(name)).toBe(valid);
  });
});
