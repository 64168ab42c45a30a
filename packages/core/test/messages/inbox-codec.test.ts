import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/ports/errors.js';
import { jsonClone } from '../../src/ports/json.js';
import type { StoreRecord } from '../../src/ports/store.js';
import {
  inboxKeyOf,
  inboxPrefix,
  parseStoreKey,
  profilePrefix,
  storeKeyOf,
} from '../../src/rules/keys.js';
import {
  DEFAULT_INBOX_LIMITS,
  inboxRecord,
  parseInbox,
  receivedIds,
} from '../../src/rules/messages/index.js';

const KEY = 'PlayerData#inbox/p1';
const limits = DEFAULT_INBOX_LIMITS;
const message = { id: 'gift-1', body: { coins: 10 }, at: 5 };
const good = { inbox: 1, pending: [message], done: [['gift-0', 4]], forgotBelow: 0 };

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { inner: value };
  return value;
}

function withPending(...pending: unknown[]): unknown {
  return { ...good, pending };
}

/** Stored values that are not an inbox this build writes: each refused, nothing changed. */
const HOSTILE: ReadonlyArray<readonly [string, unknown, string]> = [
  ['a string', 'inbox', 'is not an inbox'],
  ['a list', [good], 'is not an inbox'],
  ['a profile record', { data: {}, meta: { version: 1 } }, 'is not an inbox'],
  ['a newer format', { ...good, inbox: 2 }, 'format 2, written by a newer build'],
  ['format as text', { ...good, inbox: '1' }, 'is not an inbox'],
  ['a newer format as text', { ...good, inbox: '2' }, 'is not an inbox'],
  ['an unknown field', { ...good, extra: 1 }, 'a field "extra"'],
  [
    'an own __proto__ field',
    JSON.parse('{"inbox":1,"pending":[],"done":[],"forgotBelow":0,"__proto__":{"x":1}}'),
    'a field "__proto__"',
  ],
  ['a constructor field', { ...good, constructor: {} }, 'a field "constructor"'],
  ['pending not a list', { ...good, pending: { 0: message } }, 'no list of pending'],
  ['done not a list', { ...good, done: 'gift-0' }, 'no receipt window'],
  ['forgotBelow negative', { ...good, forgotBelow: -1 }, 'forgotBelow'],
  ['forgotBelow a fraction', { ...good, forgotBelow: 1.5 }, 'forgotBelow'],
  ['forgotBelow as text', { ...good, forgotBelow: '0' }, 'forgotBelow'],
  ['a message that is a string', withPending('gift'), 'pending[0] that is not a message'],
  ['a message with a numeric id', withPending({ ...message, id: 7 }), 'pending[0].id'],
  ['a message with an empty id', withPending({ ...message, id: '' }), 'pending[0].id'],
  ['a lone surrogate in an id', withPending({ ...message, id: 'g\uD800' }), 'pending[0].id'],
  ['an id over 128 bytes', withPending({ ...message, id: 'x'.repeat(129) }), 'pending[0].id'],
  ['a message without a body', withPending({ id: 'g', at: 1 }), 'without a body'],
  [
    'a lone surrogate in a body',
    withPending({ ...message, body: { note: '\uDC00' } }),
    'lone surrogate',
  ],
  [
    'a lone surrogate in a body key',
    withPending({ ...message, body: { '\uD801': 1 } }),
    'lone surrogate',
  ],
  ['a body nested past 64 levels', withPending({ ...message, body: nested(70) }), 'deeper than 64'],
  ['a body holding NaN', withPending({ ...message, body: { coins: Number.NaN } }), 'is NaN'],
  ['a message with a fractional time', withPending({ ...message, at: 0.5 }), 'pending[0].at'],
  ['a message with no time', withPending({ id: 'g', body: 1 }), 'pending[0].at'],
  ['a sender that is not a key', withPending({ ...message, from: 3 }), 'pending[0].from'],
  [
    'a message with an own __proto__ field',
    withPending(JSON.parse('{"id":"g","body":1,"at":1,"__proto__":1}')),
    'a field "__proto__"',
  ],
  [
    'the same id pending twice',
    withPending(message, { ...message, body: 2 }),
    'the id "gift-1" twice',
  ],
  ['an id pending and done', { ...good, done: [['gift-1', 1]] }, 'the id "gift-1" twice'],
  ['a receipt that is a string', { ...good, done: ['gift-0'] }, 'done[0] that is not'],
  ['a receipt without a time', { ...good, done: [['gift-0']] }, 'done[0] that is not'],
  ['a receipt of three items', { ...good, done: [['gift-0', 1, 2]] }, 'done[0] that is not'],
  ['a receipt with a time as text', { ...good, done: [['gift-0', '1']] }, 'done[0] that is not'],
  [
    'a receipt that is an object',
    { ...good, done: [{ 0: 'gift-0', 1: 1, length: 2 }] },
    'done[0] that is not',
  ],
  ['a receipt with a numeric id', { ...good, done: [[0, 1]] }, 'done[0] id'],
  [
    'too many pending messages',
    withPending(...Array.from({ length: 1001 }, (_, i) => ({ ...message, id: `m${i}` }))),
    '1001 pending messages, over the 1000',
  ],
  [
    'too many receipts',
    { ...good, done: Array.from({ length: 1001 }, (_, i) => [`r${i}`, i]) },
    '1001 ids, over its window of 1000',
  ],
];

describe('the inbox record', () => {
  it('reads an inbox it wrote back as the same inbox', () => {
    const inbox = parseInbox(KEY, good as StoreRecord, limits);
    expect(inbox).toBeDefined();
    expect(inboxRecord(inbox!)).toEqual(good);
    expect([...receivedIds(inbox!)]).toEqual(['gift-1', 'gift-0']);
  });

  it('reads an inbox holding exactly 1,000 pending messages and 1,000 receipts', () => {
    const full = {
      inbox: 1,
      pending: Array.from({ length: 1000 }, (_, i) => ({ ...message, id: `m${i}` })),
      done: Array.from({ length: 1000 }, (_, i) => [`r${i}`, i]),
      forgotBelow: 0,
    };
    expect(parseInbox(KEY, full as StoreRecord, limits)?.pending).toHaveLength(1000);
  });

  it('reads no record as no inbox', () => {
    expect(parseInbox(KEY, undefined, limits)).toBeUndefined();
  });

  it('keeps __proto__ and constructor keys of a body as the body own data', () => {
    const body = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}');
    const stored = { ...good, pending: [{ ...message, body }] } as unknown as StoreRecord;
    const inbox = parseInbox(KEY, stored, limits)!;
    const read = inbox.pending[0]!.body as Record<string, unknown>;
    expect(Object.keys(read)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(inboxRecord(inbox))).toBe(JSON.stringify(stored));
  });

  it.each(HOSTILE)(
    'refuses %s with Data.InvalidRecord and leaves it untouched',
    (_, value, words) => {
      const before = JSON.stringify(value);
      let thrown: unknown;
      try {
        parseInbox(KEY, value as StoreRecord, limits);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: ErrorCode.InvalidRecord, details: { key: KEY } });
      expect((thrown as Error).message).toContain(words);
      expect((thrown as Error).message).toContain('left untouched');
      expect(JSON.stringify(value)).toBe(before);
    },
  );

  it('refuses a body nested 100,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    expect(() =>
      parseInbox(KEY, withPending({ ...message, body: deep }) as StoreRecord, limits),
    ).toThrow(/deeper than 64/);
  });

  it('refuses a huge pending list by its length, before reading any message', () => {
    const pending = new Array(1_000_000).fill('not a message');
    expect(() => parseInbox(KEY, { ...good, pending } as StoreRecord, limits)).toThrow(
      /1000000 pending messages/,
    );
  });

  it('does not change a stored inbox while reading it', () => {
    const stored = jsonClone(good) as StoreRecord;
    parseInbox(KEY, stored, limits);
    expect(stored).toEqual(good);
  });
});

describe('the inbox key', () => {
  it.each([
    ['PlayerData', 'p1', 'PlayerData#inbox/p1'],
    ['PlayerData', 'a/b#inbox/c', 'PlayerData#inbox/a/b#inbox/c'],
    ['D', '#inbox/x', 'D#inbox/#inbox/x'],
  ])(
    'names the inbox of %s/%s as %s, which no profile or journal key reads as its own',
    (driver, key, inbox) => {
      expect(inboxKeyOf(driver, key)).toBe(inbox);
      expect(parseStoreKey(inbox)).toEqual({ kind: 'inbox', driver, key });
      expect(inbox.startsWith(profilePrefix(driver))).toBe(false);
      expect(inbox.startsWith(inboxPrefix(driver))).toBe(true);
    },
  );

  it.each([
    ['a profile key', storeKeyOf('PlayerData', 'p1')],
    ['another driver inbox', inboxKeyOf('PlayerData2', 'p1')],
    ['the bare prefix', inboxPrefix('PlayerData')],
  ])('reads %s as no inbox of the driver', (_, storeKey) => {
    const owner = parseStoreKey(storeKey);
    expect(owner?.kind === 'inbox' && owner.driver === 'PlayerData').toBe(false);
  });
});
