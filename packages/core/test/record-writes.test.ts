import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DataDriverError } from '../src/index.js';
import { recordJson, withDataJson } from '../src/ports/record-json.js';
import {
  fillDefaults,
  handedRecord,
  handedTakeWrites,
  releasedRecord,
  toStoreRecord,
} from '../src/rules/index.js';
import { lockedRecord, markedRecord, type ProfileRecord, parseRecord } from '../src/rules.js';

const writer = { jobId: 'B', token: 'tB', now: 5000, presence: true };

describe('record writes', () => {
  it("a load or save writes the lock with the writer's time and flag, and bumps the version", () => {
    const previous: ProfileRecord = {
      data: { coins: 1 },
      meta: {
        version: 4,
        releasedToken: 'old',
        trade: { id: 't', journal: 'j', version: 4 },
        schema: 2,
      },
    };
    // Strictly: a field a write does not set is absent, never present as undefined (JSON
    // would drop it, and a record holding undefined is not one parseRecord reads).
    expect(lockedRecord(previous, { coins: 2 }, writer)).toStrictEqual({
      data: { coins: 2 },
      meta: {
        version: 5,
        schema: 2,
        lock: { jobId: 'B', token: 'tB', time: 5000, presence: true },
      },
    });
  });

  it("keeps a newer writer's unknown meta fields, an own __proto__ among them, as fields", () => {
    const stored = JSON.parse(
      '{"data":{},"meta":{"version":3,"region":"eu","__proto__":{"x":1},"userIds":["u1"]}}',
    ) as ProfileRecord;
    for (const next of [
      lockedRecord(stored, {}, writer),
      releasedRecord(stored, {}, 'tB'),
      markedRecord(stored, {}, { id: 't', journal: 'j' }, writer),
    ]) {
      const meta = next.meta as unknown as Record<string, unknown>;
      expect(meta.region).toBe('eu');
      expect(Object.hasOwn(meta, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
      expect(JSON.stringify(meta)).toContain('"__proto__":{"x":1}');
      expect(meta.userIds).toEqual(['u1']);
      expect(meta.version).toBe(4);
    }
  });

  it('keeps an unknown meta field that is the only one: an own __proto__, a field named like a prototype method', () => {
    for (const json of [
      '{"data":{},"meta":{"version":3,"__proto__":{"x":1}}}',
      '{"data":{},"meta":{"version":3,"toString":"kept"}}',
    ]) {
      const stored = JSON.parse(json) as ProfileRecord;
      const meta = lockedRecord(stored, {}, writer).meta;
      expect(JSON.parse(JSON.stringify(meta))).toEqual({
        ...(JSON.parse(json) as ProfileRecord).meta,
        version: 4,
        lock: { jobId: 'B', token: 'tB', time: 5000, presence: true },
      });
      expect(JSON.stringify(meta)).toContain(
        json.includes('__proto__') ? '"__proto__"' : '"toString"',
      );
    }
  });

  it('writes the extras given (schema 0 and no user ids left out) and keeps the stored ones otherwise', () => {
    const stored: ProfileRecord = { data: {}, meta: { version: 1, schema: 3, userIds: ['u1'] } };
    expect(lockedRecord(stored, {}, writer).meta).toMatchObject({ schema: 3, userIds: ['u1'] });
    const plain: ProfileRecord = { data: {}, meta: { version: 1, userIds: ['u1'] } };
    const cleared = lockedRecord(plain, {}, writer, { schema: 0, userIds: [] }).meta;
    expect('schema' in cleared || 'userIds' in cleared).toBe(false);
    const set = releasedRecord(stored, {}, 'tB', { schema: 4, userIds: ['u2'] }).meta;
    expect(set).toEqual({ version: 2, releasedToken: 'tB', schema: 4, userIds: ['u2'] });
  });

  it('never lowers the schema: an older writer keeps a newer record’s schema and its compatible mark', () => {
    const newer: ProfileRecord = { data: {}, meta: { version: 1, schema: 3, compatible: 1 } };
    expect(lockedRecord(newer, {}, writer, { schema: 2, compatible: 2 }).meta).toMatchObject({
      schema: 3,
      compatible: 1,
    });
    expect(lockedRecord(newer, {}, writer, { schema: 0 }).meta).toMatchObject({
      schema: 3,
      compatible: 1,
    });
    // The newest writer sets its own mark, and none when only its schema can load the data.
    expect(lockedRecord(newer, {}, writer, { schema: 4, compatible: 2 }).meta).toMatchObject({
      schema: 4,
      compatible: 2,
    });
    expect('compatible' in lockedRecord(newer, {}, writer, { schema: 4, compatible: 4 }).meta).toBe(
      false,
    );
  });

  it('only a server with handoff on writes presence: true', () => {
    expect(lockedRecord(undefined, {}, { ...writer, presence: false }).meta.lock?.presence).toBe(
      false,
    );
  });

  it('a release clears the lock and sets releasedToken to this token', () => {
    const held = lockedRecord(undefined, { coins: 1 }, writer);
    expect(releasedRecord(held, { coins: 9 }, 'tB')).toStrictEqual({
      data: { coins: 9 },
      meta: { version: 2, releasedToken: 'tB' },
    });
  });

  it("a trade marker writes the holder's data and records the version it was written at", () => {
    const held = lockedRecord(undefined, { coins: 1 }, writer);
    const marked = markedRecord(
      held,
      { coins: 3 },
      { id: 't1', journal: 'J' },
      { ...writer, now: 6000 },
    );
    // The holder's data, not the stored one: an abort leaves it with what it has now.
    expect(marked.data).toEqual({ coins: 3 });
    expect(marked.meta.trade).toEqual({ id: 't1', journal: 'J', version: 2 });
    expect(marked.meta.lock?.time).toBe(6000);
  });

  it('defaults fill keys missing from older records, top level only', () => {
    const filled = fillDefaults(
      { coins: 5, bag: { a: 1 } },
      { coins: 0, gems: 0, bag: { a: 0, b: 0 } },
    );
    expect(filled).toEqual({ coins: 5, gems: 0, bag: { a: 1 } });
  });

  it('defaults are their own fields: an inherited one is not filled, a __proto__ one is, as data', () => {
    const inherited = Object.assign(Object.create({ level: 1 }), { gems: 0 });
    expect(fillDefaults({ coins: 5 }, inherited)).toStrictEqual({ coins: 5, gems: 0 });
    const proto = JSON.parse('{"__proto__":{"x":1},"gems":0}');
    const filled = fillDefaults({ coins: 5 }, proto);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(filled, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.keys(filled)).toEqual(['coins', '__proto__', 'gems']);
  });

  it('refuses a stored value that is not a DataDriver record', () => {
    expect(() => parseRecord('k', { coins: 5 })).toThrow(DataDriverError);
    expect(() => parseRecord('k', { data: {}, meta: { version: 1, lock: { jobId: 1 } } })).toThrow(
      /Data.InvalidRecord/,
    );
    expect(parseRecord('k', undefined)).toBeUndefined();
  });
});

describe('a hand-over', () => {
  const lockB = { jobId: 'B', token: 'tB', time: 5000, presence: true };
  const heldByA: ProfileRecord = {
    data: { coins: 1 },
    meta: { version: 4, lock: { ...lockB, jobId: 'A', token: 'tA' }, schema: 2, userIds: ['u1'] },
  };

  it("writes the requester's lock and the releasing token, and bumps the version", () => {
    expect(handedRecord(heldByA, { coins: 2 }, 'tA', lockB, { schema: 2 })).toStrictEqual({
      data: { coins: 2 },
      meta: { version: 5, lock: lockB, releasedToken: 'tA', schema: 2, userIds: ['u1'] },
    });
  });

  const handed = handedRecord(heldByA, { coins: 2 }, 'tA', lockB, { schema: 2 });
  const take = (extras: { schema?: number; compatible?: number }, data = handed.data) =>
    lockedRecord(handed, data, writer, extras);
  const rows: Array<[string, ProfileRecord, ProfileRecord, boolean]> = [
    ['the same data and schema: no write', handed, take({ schema: 2 }), false],
    [
      'a writer of an older schema (the record keeps its own): no write',
      handed,
      take({ schema: 1 }),
      false,
    ],
    ['migrated data (another object): write', handed, take({ schema: 2 }, { coins: 2 }), true],
    ['a newer schema: write', handed, take({ schema: 3 }), true],
    ['a compatible schema to record: write', handed, take({ schema: 2, compatible: 1 }), true],
    [
      'a trade marker on the handed record: write (the take clears it)',
      { ...handed, meta: { ...handed.meta, trade: { id: 't', journal: 'j', version: 5 } } },
      take({ schema: 2 }),
      true,
    ],
  ];
  it.each(rows)('the take after it: %s', (_name, found, taken, writes) => {
    expect(handedTakeWrites(found, taken)).toBe(writes);
  });
});

describe("a written record's JSON", () => {
  /** The record's JSON as a write makes it: its data's JSON and its meta's (`withDataJson`). */
  const written = (record: ProfileRecord) =>
    recordJson(toStoreRecord(withDataJson(record, JSON.stringify(record.data))));

  it("is exactly JSON.stringify's, for any lock, token, schema and the fields left to it", () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    const writers = fc.record({
      jobId: text,
      token: text,
      now: fc.double(),
      presence: fc.boolean(),
    });
    const extras = fc.record(
      { schema: fc.nat(9), compatible: fc.nat(9), userIds: fc.array(text, { maxLength: 2 }) },
      { requiredKeys: [] },
    );
    const olds = fc.option(fc.record({ schema: fc.nat(9), compatible: fc.nat(9) }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(writers, text, extras, olds, (writer, token, extras, old) => {
        const before = lockedRecord(undefined, { coins: 1 }, writer, old ?? {});
        // A lock in another field order than a write's own.
        const lock = { presence: writer.presence, time: writer.now, token, jobId: writer.jobId };
        const trade = { id: 'tr', journal: token };
        for (const record of [
          before,
          lockedRecord(before, { coins: 2 }, writer, extras),
          releasedRecord(before, { coins: 2 }, token, extras),
          handedRecord(before, { coins: 2 }, token, lock, extras),
          markedRecord(before, { coins: 2 }, trade, writer, extras),
        ]) {
          expect(written(record)).toBe(JSON.stringify(record));
        }
      }),
    );
  });

  const rows: Array<[name: string, record: () => ProfileRecord]> = [
    ['a new lock', () => lockedRecord(undefined, {}, writer)],
    [
      'a lock with a schema',
      () => lockedRecord(undefined, {}, writer, { schema: 3, compatible: 2 }),
    ],
    ['a release', () => releasedRecord(undefined, {}, 'tB', { schema: 3 })],
    ['a hand-over', () => handedRecord(undefined, {}, 'tA', { ...writer, time: 1, token: 't"B' })],
    ['user ids', () => lockedRecord(undefined, {}, writer, { userIds: ['u1'] })],
    [
      'applied messages',
      () => lockedRecord(undefined, {}, writer, { messages: { applied: ['m1'], outbox: [] } }),
    ],
    [
      'a trade marker',
      () =>
        markedRecord(lockedRecord(undefined, {}, writer), {}, { id: 't', journal: 'j' }, writer),
    ],
    [
      'a lock time that is not finite',
      () => lockedRecord(undefined, {}, { ...writer, now: Number.NaN }),
    ],
    [
      "a newer writer's field",
      () => lockedRecord({ data: {}, meta: { version: 1, next: 1 } as never }, {}, writer),
    ],
  ];
  it.each(rows)('%s', (_name, record) => {
    const made = record();
    expect(written(made)).toBe(JSON.stringify(made));
  });

  it("names each writer's job id when servers' writes alternate (the lock's text is reused per job id)", () => {
    const writers = ['server-a', 'server-b', 'server-a', 'b"quoted\\', 'server-b'].map(
      (jobId, index) => ({ ...writer, jobId, token: `t${index}` }),
    );
    for (const each of writers) {
      const record = lockedRecord(undefined, { coins: 1 }, each);
      expect(JSON.parse(written(record)).meta.lock.jobId).toBe(each.jobId);
      expect(written(record)).toBe(JSON.stringify(record));
    }
  });

  it('of a meta of numbers, strings and a lock is made without stringifying the meta', () => {
    const record = lockedRecord(undefined, { coins: 1 }, writer, { schema: 2 });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      withDataJson(record, '{"coins":1}');
      expect(stringify.mock.calls.filter(([value]) => value === record.meta)).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
    expect(recordJson(toStoreRecord(record))).toBe(JSON.stringify(record));
  });
});
