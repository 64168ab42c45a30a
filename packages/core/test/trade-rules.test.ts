import { describe, expect, it } from 'vitest';
import {
  decidedJournal,
  type ProfileRecord,
  preparedJournal,
  settledData,
} from '../src/ports/index.js';

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
});
