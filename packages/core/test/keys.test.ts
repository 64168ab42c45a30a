import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../src/rules/index.js';
import { checkHostJobId, tooLong, wireBytes } from '../src/rules/keys.js';
import {
  inboxKeyOf,
  journalKeyOf,
  journalPrefix,
  parseStoreKey,
  profilePrefix,
  storeKeyOf,
} from '../src/rules.js';

describe('store keys', () => {
  it('a profile is <name>/<key>, a journal <name>#trade/<id>', () => {
    expect(storeKeyOf('PlayerData', 'u1')).toBe('PlayerData/u1');
    expect(journalKeyOf('PlayerData', 't1')).toBe('PlayerData#trade/t1');
    expect(profilePrefix('PlayerData')).toBe('PlayerData/');
    expect(journalPrefix('PlayerData')).toBe('PlayerData#trade/');
  });

  const rows: Array<[string, ReturnType<typeof parseStoreKey>]> = [
    ['PlayerData/u1', { kind: 'profile', driver: 'PlayerData', key: 'u1' }],
    ['PlayerData/a/b', { kind: 'profile', driver: 'PlayerData', key: 'a/b' }],
    ['PlayerData/#trade/x', { kind: 'profile', driver: 'PlayerData', key: '#trade/x' }],
    ['PlayerData/__proto__', { kind: 'profile', driver: 'PlayerData', key: '__proto__' }],
    ['PlayerData#trade/t1', { kind: 'journal', driver: 'PlayerData', trade: 't1' }],
    ['PlayerData#trade/a/b', { kind: 'journal', driver: 'PlayerData', trade: 'a/b' }],
    ['PlayerData#trade/', undefined],
    ['PlayerData#inbox/u1', { kind: 'inbox', driver: 'PlayerData', key: 'u1' }],
    ['PlayerData#inbox/a/b', { kind: 'inbox', driver: 'PlayerData', key: 'a/b' }],
    ['PlayerData#inbox/', undefined],
    ['PlayerData#other/u1', undefined],
    ['#trade/t1', undefined],
    ['PlayerData/', undefined],
    ['/u1', undefined],
    ['PlayerData', undefined],
    ['Player#Data/u1', undefined],
    ['', undefined],
  ];
  it.each(rows)('%j is %j', (storeKey, owner) => {
    expect(parseStoreKey(storeKey)).toEqual(owner);
  });

  it('reads back what it writes', () => {
    for (const [driver, key] of [
      ['PlayerData', 'u1'],
      ['P', '/'],
      ['P', '#trade/1'],
    ] as const) {
      expect(parseStoreKey(storeKeyOf(driver, key))).toEqual({ kind: 'profile', driver, key });
      expect(parseStoreKey(journalKeyOf(driver, key))).toEqual({
        kind: 'journal',
        driver,
        trade: key,
      });
      expect(parseStoreKey(inboxKeyOf(driver, key))).toEqual({ kind: 'inbox', driver, key });
    }
  });
});

describe('checkHostJobId', () => {
  it.each([
    ['empty (the host has none yet)', ''],
    ['a plain id', 'server-1'],
    ['exactly 256 bytes as JSON', 'a'.repeat(256)],
  ])('accepts %s', (_name, jobId) => {
    expect(() => checkHostJobId(jobId)).not.toThrow();
  });
  it.each([
    [
      'a lone surrogate',
      'srv\ud800',
      'Data.InvalidConfig: the host\'s jobId "srv\\ud800" is not well-formed UTF-16; give each server an id without lone surrogates',
    ],
    [
      'one byte too long',
      'a'.repeat(257),
      /^Data\.InvalidConfig: the host's jobId .* \(MAX_NAME_BYTES\)$/,
    ],
  ])('refuses %s', (_name, jobId, message) => {
    expect(() => checkHostJobId(jobId)).toThrow(message);
  });
});

describe('wireBytes and tooLong: what a text takes in a JSON message', () => {
  const measured = (text: string) => utf8Bytes(JSON.stringify(text)) - 2;

  it.each(['', 'plain-ascii_key 1', '"', '\\', '\u007f', '\u0001', 'é', '😀', '\ud800'])(
    '%j: the bytes of its JSON string',
    (text) => {
      expect(wireBytes(text)).toBe(measured(text));
    },
  );

  it('any text: the bytes of its JSON string, and tooLong says so past the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.integer({ min: 0, max: 300 }),
        (text, max) => {
          expect(wireBytes(text)).toBe(measured(text));
          expect(tooLong(text, max) !== undefined).toBe(measured(text) > max);
        },
      ),
    );
  });
});
