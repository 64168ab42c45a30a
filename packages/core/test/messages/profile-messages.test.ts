import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import {
  DEFAULT_INBOX_LIMITS,
  NO_PROFILE_MESSAGES,
  type ProfileMessages,
  parseProfileMessages,
  profileMessagesMeta,
} from '../../src/rules/messages/index.js';

const limits = DEFAULT_INBOX_LIMITS;
const transfer = { to: 'bob', id: 't1', body: { coins: 10 }, at: 100 };
const good = { applied: ['g1', 'g2'], outbox: [transfer] };

const HOSTILE: ReadonlyArray<readonly [string, unknown, string]> = [
  ['a list', [], 'not an object'],
  ['a string', 'g1', 'not an object'],
  ['an unknown field', { ...good, extra: 1 }, 'field "extra"'],
  [
    'an own __proto__ field',
    JSON.parse('{"applied":[],"outbox":[],"__proto__":[]}'),
    'field "__proto__"',
  ],
  ['applied not a list', { ...good, applied: 'g1' }, 'applied that is not a list'],
  ['a numeric applied id', { ...good, applied: [1] }, 'applied[0]'],
  ['an applied id with a lone surrogate', { ...good, applied: ['\uD800'] }, 'applied[0]'],
  ['an applied id twice', { ...good, applied: ['g1', 'g1'] }, 'applied id "g1" twice'],
  [
    'too many applied ids',
    { ...good, applied: Array.from({ length: 1101 }, (_, i) => `a${i}`) },
    '1101 applied ids',
  ],
  ['outbox not a list', { ...good, outbox: {} }, 'outbox that is not a list'],
  ['a transfer that is a string', { ...good, outbox: ['t'] }, 'outbox[0] that is not a transfer'],
  [
    'a transfer with an unknown field',
    { ...good, outbox: [{ ...transfer, constructor: 1 }] },
    'field "constructor"',
  ],
  ['a transfer with no recipient', { ...good, outbox: [{ ...transfer, to: '' }] }, 'outbox[0].to'],
  ['a transfer with a bad id', { ...good, outbox: [{ ...transfer, id: null }] }, 'outbox[0].id'],
  ['a transfer id twice', { ...good, outbox: [transfer, transfer] }, 'transfer id "t1" twice'],
  [
    'a transfer without a body',
    { ...good, outbox: [{ to: 'bob', id: 't', at: 1 }] },
    'without a body',
  ],
  [
    'a transfer body with a lone surrogate',
    { ...good, outbox: [{ ...transfer, body: '\uDBFF' }] },
    'lone surrogate',
  ],
  ['a transfer at a negative time', { ...good, outbox: [{ ...transfer, at: -5 }] }, 'outbox[0].at'],
  [
    'uncertain as false',
    { ...good, outbox: [{ ...transfer, uncertain: false }] },
    'uncertain that is not true',
  ],
  [
    'too many transfers',
    { ...good, outbox: Array.from({ length: 101 }, (_, i) => ({ ...transfer, id: `t${i}` })) },
    '101 transfers',
  ],
];

describe("a profile's meta.messages", () => {
  it('reads what it writes', () => {
    const read = parseProfileMessages('p1', good, limits);
    expect(profileMessagesMeta(read)).toEqual(good);
  });

  it.each<[string, ProfileMessages]>([
    ['only applied ids', { applied: ['g1'], outbox: [] }],
    ['only an outbox', { applied: [], outbox: [transfer] }],
  ])('writes %s back', (_, messages) => {
    expect(profileMessagesMeta(messages)).toEqual(messages);
  });

  it('reads the most a profile keeps: 1,100 applied ids, 100 transfers, a time of 0, an uncertain one', () => {
    const most = {
      applied: Array.from({ length: 1100 }, (_, i) => `a${i}`),
      outbox: Array.from({ length: 100 }, (_, i) => ({
        ...transfer,
        id: `t${i}`,
        at: 0,
        uncertain: true,
      })),
    };
    expect(parseProfileMessages('p1', most, limits)).toBe(most);
  });

  it('reads an absent field as no messages, and writes none back', () => {
    expect(parseProfileMessages('p1', undefined, limits)).toBe(NO_PROFILE_MESSAGES);
    expect(profileMessagesMeta(NO_PROFILE_MESSAGES)).toBeUndefined();
  });

  it.each(HOSTILE)('refuses %s with Data.InvalidRecord, untouched', (_, value, words) => {
    const before = JSON.stringify(value);
    expect(() => parseProfileMessages('p1', value, limits)).toThrow(words);
    try {
      parseProfileMessages('p1', value, limits);
    } catch (error) {
      expect(error).toMatchObject({ code: ErrorCode.InvalidRecord, details: { key: 'p1' } });
    }
    expect(JSON.stringify(value)).toBe(before);
  });
});
