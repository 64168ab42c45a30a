import { describe, expect, it } from 'vitest';
import { markerGate } from '../src/rules/trade-rules.js';
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

  it('a journal that never landed is recorded as aborted and cannot be committed later', () => {
    const aborted = decidedJournal(undefined, 't1', 'aborted', 2);
    expect(aborted?.state).toBe('aborted');
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
