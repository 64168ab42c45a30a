/**
 * The autosave's rule (`autosaveWrites`): an autosave whose record would differ from the last
 * committed write only by its version and lock time writes nothing, until that write is a
 * third of the lock's TTL old.
 */
import { describe, expect, it } from 'vitest';
import {
  type AutosaveCheck,
  autosaveWrites,
  type CommittedWrite,
  lacksDefaults,
  lockRefreshMs,
  nextAutosaveDue,
  type RecordMeta,
  sameJson,
} from '../src/rules/index.js';

const at = 1_000_000;
const lock = { jobId: 'A', token: 'tA', time: at, presence: true };
const meta: RecordMeta = { version: 7, lock, schema: 2, compatible: 1, userIds: ['u1'] };
const last: CommittedWrite = { json: '{"coins":1}', meta, at };
const extras = { schema: 2, compatible: 1, userIds: ['u1'] };

function check(change: Partial<AutosaveCheck> & { readonly after?: number }): AutosaveCheck {
  const { after = 30_000, ...rest } = change;
  return {
    last,
    json: last.json,
    writer: { jobId: 'A', token: 'tA', now: at + after, presence: true },
    extras,
    lockTtlSeconds: 180,
    ...rest,
  };
}

describe('lockRefreshMs', () => {
  it.each([
    [180, 60_000],
    [90, 30_000],
    [1, 1000 / 3],
  ])('a lock TTL of %i s is refreshed after %d ms', (ttl, ms) => {
    expect(lockRefreshMs(ttl)).toBe(ms);
  });
});

describe('autosaveWrites', () => {
  const messages = { applied: ['m1'], outbox: [] };
  const entry = { to: 'p2', id: 'x1', body: { gold: 5 }, at: 1 };
  it.each<[string, Partial<AutosaveCheck> & { readonly after?: number }, boolean]>([
    ['nothing new, 30 s after the last write: nothing', {}, false],
    ['nothing new, 1 ms before a third of the TTL: nothing', { after: 59_999 }, false],
    ['nothing new, at a third of the TTL: a refresh', { after: 60_000 }, true],
    ['nothing new, past a third of the TTL: a refresh', { after: 90_000 }, true],
    ['a third of a shorter TTL (90 s): a refresh', { after: 30_000, lockTtlSeconds: 90 }, true],
    ['just under it: nothing', { after: 29_999, lockTtlSeconds: 90 }, false],
    ['no committed write known (one failed since): a write', { last: undefined }, true],
    ['other data: a write', { json: '{"coins":2}' }, true],
    ['the same data in another key order: a write', { json: '{ "coins":1}' }, true],
    ['another user id: a write', { extras: { ...extras, userIds: ['u1', 'u2'] } }, true],
    ['a user id fewer: a write', { extras: { ...extras, userIds: [] } }, true],
    ['another schema: a write', { extras: { ...extras, schema: 3 } }, true],
    ['another compatible mark: a write', { extras: { ...extras, compatible: 0 } }, true],
    ['messages applied: a write', { extras: { ...extras, messages } }, true],
    [
      'no messages, none stored: nothing',
      { extras: { ...extras, messages: { applied: [], outbox: [] } } },
      false,
    ],
  ])('%s', (_title, change, writes) => {
    expect(autosaveWrites(check(change))).toBe(writes);
  });

  it.each<[string, Partial<typeof lock>]>([
    ['another token', { token: 'tB' }],
    ['another server', { jobId: 'B' }],
    ['presence beats turned off', { presence: false }],
  ])('a lock of %s in the record: a write', (_title, writer) => {
    const base = check({});
    expect(autosaveWrites({ ...base, writer: { ...base.writer, ...writer } })).toBe(true);
  });

  it.each<[string, RecordMeta]>([
    ['no lock (released)', { version: 7, schema: 2, compatible: 1, userIds: ['u1'] }],
    [
      'no lock and a released token in its place',
      { version: 7, releasedToken: 'tA', schema: 2, compatible: 1, userIds: ['u1'] },
    ],
    ['a released token', { ...meta, releasedToken: 'tA' }],
    ['a trade marker', { ...meta, trade: { id: 't', journal: 'j', version: 7 } }],
    ['an empty user id list', { ...meta, userIds: [] }],
    ['other user ids', { ...meta, userIds: ['u9'] }],
  ])('a committed record with %s: a write (the save would change it)', (_title, stored) => {
    expect(autosaveWrites(check({ last: { ...last, meta: stored } }))).toBe(true);
  });

  it('nothing new with messages and an outbox stored: nothing; a settled transfer: a write', () => {
    const held = { applied: ['m1', 'm2'], outbox: [entry] };
    const stored = { ...last, meta: { ...meta, messages: held } };
    const same = { applied: ['m1', 'm2'], outbox: [{ ...entry, body: { gold: 5 } }] };
    expect(autosaveWrites(check({ last: stored, extras: { ...extras, messages: same } }))).toBe(
      false,
    );
    for (const changed of [
      { applied: ['m1', 'm2'], outbox: [] },
      { applied: ['m2', 'm1'], outbox: [entry] },
      { applied: ['m1', 'm2'], outbox: [{ ...entry, body: { gold: 6 } }] },
      { applied: ['m1', 'm2'], outbox: [{ ...entry, uncertain: true as const }] },
      { applied: ['m1', 'm2'], outbox: [{ ...entry, body: [5] }] },
    ]) {
      const next = check({ last: stored, extras: { ...extras, messages: changed } });
      expect(autosaveWrites(next), JSON.stringify(changed)).toBe(true);
    }
  });

  it("a newer writer's unknown meta fields are carried over: nothing new", () => {
    const stored = {
      ...last,
      meta: { ...meta, region: 'eu', nested: { a: [1, null] } } as RecordMeta,
    };
    expect(autosaveWrites(check({ last: stored }))).toBe(false);
    // An own `__proto__` field in the stored meta is a field like any other.
    const proto = JSON.parse(
      '{"version":7,"lock":{"jobId":"A","token":"tA","time":1000000,"presence":true},"schema":2,"compatible":1,"userIds":["u1"],"__proto__":{"x":1}}',
    ) as RecordMeta;
    expect(autosaveWrites(check({ last: { ...last, meta: proto } }))).toBe(false);
  });

  it('a newer schema stored stays: nothing new', () => {
    const newer = { ...last, meta: { ...meta, schema: 5, compatible: 2 } };
    expect(autosaveWrites(check({ last: newer }))).toBe(false);
  });
});

describe('sameJson', () => {
  const proto = JSON.parse('{"__proto__":{}}') as unknown;
  it.each<[string, unknown, unknown, boolean]>([
    ['equal numbers', 1, 1, true],
    ['other numbers', 1, 2, false],
    ['a number and its text', 1, '1', false],
    ['null and null', null, null, true],
    ['null and an object', null, {}, false],
    ['an object and null', {}, null, false],
    ['a number and an object', 1, {}, false],
    ['an object and a number', {}, 1, false],
    ['a text and a list', 'a', ['a'], false],
    ['a list and a text', ['a'], 'a', false],
    ['an empty list and an empty object', [], {}, false],
    ['an empty object and an empty list', {}, [], false],
    ['equal lists', [1, 2], [1, 2], true],
    ['a list in another order', [1, 2], [2, 1], false],
    ['a shorter list', [1], [1, 2], false],
    ['a longer list', [1, 2], [1], false],
    ['the same keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
    ['a key more', { a: 1 }, { a: 1, b: 2 }, false],
    ['a key fewer', { a: 1, b: 2 }, { a: 1 }, false],
    ['another key', { a: 1 }, { b: 1 }, false],
    ['an own __proto__ and another key', proto, { x: {} }, false],
    ['another key and an own __proto__', { x: {} }, proto, false],
    ['an own __proto__ on both', proto, JSON.parse('{"__proto__":{}}'), true],
    ['nested, equal', { a: [{ b: null }] }, { a: [{ b: null }] }, true],
    ['nested, other', { a: [{ b: null }] }, { a: [{ b: 0 }] }, false],
  ])('%s: %s', (_title, a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });
});

describe('lacksDefaults', () => {
  it.each<[string, object, object, boolean]>([
    ['every default present', { coins: 1, level: 2 }, { coins: 0 }, false],
    ['no defaults', { coins: 1 }, {}, false],
    ['one missing', { coins: 1 }, { coins: 0, level: 1 }, true],
    ['a missing __proto__ default', { coins: 1 }, JSON.parse('{"__proto__":1}'), true],
    ['a present __proto__', JSON.parse('{"__proto__":2}'), JSON.parse('{"__proto__":1}'), false],
    ['an inherited field is no default', { coins: 1 }, Object.create({ level: 1 }), false],
    [
      'defaults with no prototype',
      { coins: 1 },
      Object.assign(Object.create(null), { a: 1 }),
      true,
    ],
  ])('%s: %s', (_title, data, defaults, lacks) => {
    expect(lacksDefaults(data as never, defaults as never)).toBe(lacks);
  });
});

describe('nextAutosaveDue', () => {
  const rows: Array<[name: string, due: number, now: number, next: number]> = [
    ['on time: one period after the last due time', 1_000, 1_000, 31_000],
    ['run a little late: still one period after the due time', 1_000, 1_003, 31_000],
    ['clock stepped forward by under a period: the same', 1_000, 20_000, 31_000],
    ['stepped forward to the next due time exactly: the one after', 1_000, 31_000, 61_000],
    ['stepped forward past it: the next of its period after now', 1_000, 45_000, 61_000],
    ['stepped forward by many periods: its phase kept', 1_000, 301_500, 331_000],
    ['stepped back: one period from now', 1_000, -50_000, -20_000],
  ];
  it.each(rows)('%s', (_name, due, now, next) => {
    expect(nextAutosaveDue(due, now, 30_000)).toBe(next);
  });
});
