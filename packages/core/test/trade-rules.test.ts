import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import { markerGate, parseJournal } from '../src/rules/trade-rules.js';
import {
  decidedJournal,
  outcomeOf,
  type ProfileRecord,
  preparedJournal,
  settledData,
} from '../src/rules.js';

const prepared = preparedJournal('t1', { a: { coins: 0 }, b: { coins: 10 } }, 1);

describe('trade rules', () => {
  it('the first decision wins', () => {
    const committed = decidedJournal(prepared, 't1', 'committed', 2);
    expect(committed?.state).toBe('committed');
    expect(decidedJournal(committed, 't1', 'aborted', 3)).toBeUndefined();
  });

  it('a prepared journal is a journal of its id, its entries and its time', () => {
    expect(prepared).toEqual({
      kind: 'datadriver.trade',
      id: 't1',
      state: 'prepared',
      entries: { a: { coins: 0 }, b: { coins: 10 } },
      time: 1,
    });
  });

  it('a commit keeps the entries the participants apply; an abort drops them', () => {
    expect(decidedJournal(prepared, 't1', 'committed', 2)).toEqual({
      ...prepared,
      state: 'committed',
    });
    expect(decidedJournal(prepared, 't1', 'aborted', 2)).toEqual({
      ...prepared,
      state: 'aborted',
      entries: {},
    });
  });

  it('a journal that never landed is recorded as aborted and cannot be committed later', () => {
    const aborted = decidedJournal(undefined, 't1', 'aborted', 2);
    expect(aborted).toEqual({
      kind: 'datadriver.trade',
      id: 't1',
      state: 'aborted',
      entries: {},
      time: 2,
    });
    expect(decidedJournal(undefined, 't1', 'committed', 2)).toBeUndefined();
    expect(decidedJournal(aborted, 't1', 'committed', 3)).toBeUndefined();
  });

  const marker = { id: 't1', journal: 'J', version: 7 };
  const rows: Array<[string, number, 'committed' | 'aborted', unknown]> = [
    ['committed, untouched since the marker: apply the entry', 7, 'committed', { coins: 0 }],
    ['committed, saved since the marker: keep the saved data', 8, 'committed', { coins: 5 }],
    ['aborted: keep the data', 7, 'aborted', { coins: 5 }],
  ];
  it.each(rows)('%s', (_name, version, state, expected) => {
    const record: ProfileRecord = { data: { coins: 5 }, meta: { version, trade: marker } };
    const journal = { ...prepared, state };
    expect(settledData(record, 'a', marker, journal)).toEqual(expected);
  });

  it('a missing journal settles as aborted', () => {
    const record: ProfileRecord = { data: { coins: 5 }, meta: { version: 7, trade: marker } };
    expect(settledData(record, 'a', marker, undefined)).toEqual({ coins: 5 });
  });

  const prepared2 = { ...prepared, state: 'prepared' as const };
  const settleRows: Array<[string, number, unknown, string, unknown]> = [
    ['prepared (undecided): keep the data', 7, prepared2, 'a', { coins: 5 }],
    [
      'committed, no entry for this key: keep the data',
      7,
      { ...prepared, state: 'committed' },
      'c',
      { coins: 5 },
    ],
    [
      'committed, a key named __proto__ reads only its own entry',
      7,
      { ...prepared, state: 'committed' },
      '__proto__',
      { coins: 5 },
    ],
  ];
  it.each(settleRows)('%s', (_name, version, journal, key, expected) => {
    const record: ProfileRecord = { data: { coins: 5 }, meta: { version, trade: marker } };
    expect(settledData(record, key, marker, journal as never)).toEqual(expected);
  });

  it.each([
    [undefined, 'aborted'],
    [prepared, 'prepared'],
    [{ ...prepared, state: 'committed' as const }, 'committed'],
  ])('the outcome of %j is %s', (journal, outcome) => {
    expect(outcomeOf(journal)).toBe(outcome);
  });
});

// Whether a load's take writes now or settles the record's trade first.
const gateRows: Array<[string, { id: string } | undefined, string | undefined, string]> = [
  ['no marker: write', undefined, undefined, 'write'],
  ['no marker, a trade settled earlier: write', undefined, 't0', 'write'],
  ['a marker not settled yet: settle it first', { id: 't1' }, undefined, 'settle-first'],
  [
    'a marker of another trade than the one settled: settle it first',
    { id: 't2' },
    't1',
    'settle-first',
  ],
  ['the marker of the trade just settled: write', { id: 't1' }, 't1', 'write'],
];

describe('markerGate', () => {
  it.each(gateRows)('%s', (_name, marker, settled, gate) => {
    const full = marker && { ...marker, journal: 'J', version: 1 };
    expect(markerGate(full, settled)).toBe(gate);
  });
});

// A value at a journal key that is not a journal: refused with what is wrong, left untouched.
const journalRows: Array<[string, Record<string, unknown>, string]> = [
  ['another kind', { ...prepared, kind: 'datadriver.profile' }, 'is not a trade journal'],
  ['no id', { ...prepared, id: undefined }, 'has no trade id'],
  ['an id that is not well-formed text', { ...prepared, id: '\uD800' }, 'has no trade id'],
  ['no state', { ...prepared, state: undefined }, 'has no trade state'],
  ['an unknown state', { ...prepared, state: 'decided' }, 'has no trade state'],
  ['no time', { ...prepared, time: undefined }, 'has no time'],
  ['no entries', { ...prepared, entries: [] }, 'has no entries'],
  [
    'an entry not an object',
    { ...prepared, entries: { a: 5 } },
    'has entries["a"] that is not an object',
  ],
  [
    'an entry JSON would change',
    { ...prepared, entries: { a: { coins: Number.NaN } } },
    'holds entries["a"].coins is NaN; only plain objects, arrays, strings, finite numbers, booleans and null survive JSON',
  ],
];

describe('parseJournal', () => {
  it.each(journalRows)('%s: Data.InvalidRecord', (_name, value, problem) => {
    let thrown: unknown;
    try {
      parseJournal(value as never, 'T#trade/t1');
    } catch (error) {
      thrown = error;
    }
    expect(DataDriverError.is(thrown, ErrorCode.InvalidRecord)).toBe(true);
    const error = thrown as DataDriverError;
    expect(error.message).toBe(
      `Data.InvalidRecord: the value stored under T#trade/t1 ${problem}; it was left untouched`,
    );
    expect(error.details).toEqual({ key: 'T#trade/t1' });
  });

  it.each([
    ['prepared', prepared],
    ['committed', { ...prepared, state: 'committed' }],
    ['aborted', { ...prepared, state: 'aborted', entries: {} }],
  ])('a %s journal is read as it is', (_state, journal) => {
    expect(parseJournal(journal as never)).toEqual(journal);
  });

  it('no value: no journal', () => {
    expect(parseJournal(undefined)).toBeUndefined();
  });

  it('names the journal key it was given, or says it was one', () => {
    expect(() => parseJournal({ kind: 'x' } as never)).toThrow(
      'the value stored under a trade journal key is not a trade journal; it was left untouched',
    );
  });
});
