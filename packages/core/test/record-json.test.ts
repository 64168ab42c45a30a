/** Issue 21: a record's JSON is made once per write, measured by core and written by the store. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDataJson } from '../src/ports/record-json.js';
import { recordJson } from '../src/ports.js';
import { lockedRecord, markedRecord, releasedRecord, toStoreRecord } from '../src/rules/index.js';
import { stored, testBed } from './helpers.js';

afterEach(() => vi.restoreAllMocks());

/** How many times `JSON.stringify` turned a whole profile record into JSON during `act`. */
async function recordStringifies(act: () => Promise<unknown>): Promise<number> {
  const stringify = vi.spyOn(JSON, 'stringify');
  await act();
  const records = stringify.mock.calls.filter(([value]) => {
    return typeof value === 'object' && value !== null && 'meta' in value && 'data' in value;
  });
  stringify.mockRestore();
  return records.length;
}

describe('recordJson', () => {
  it('is the JSON of the record, made once per record object', () => {
    const record = { data: { coins: 1 }, meta: { version: 1 } };
    const stringify = vi.spyOn(JSON, 'stringify');
    const first = recordJson(record);
    expect(recordJson(record)).toBe(first);
    expect(first).toBe('{"data":{"coins":1},"meta":{"version":1}}');
    expect(stringify).toHaveBeenCalledTimes(1);
  });

  it('is the JSON of each record asked for, whichever record was asked for last', () => {
    const first = { data: { coins: 1 }, meta: { version: 1 } };
    const second = { data: { coins: 2 }, meta: { version: 2 } };
    expect(recordJson(first)).toBe(JSON.stringify(first));
    expect(recordJson(second)).toBe(JSON.stringify(second));
    expect(recordJson(first)).toBe(JSON.stringify(first));
  });

  it("a record made from its data's JSON has exactly JSON.stringify's text, for every record a session writes", () => {
    const previous = lockedRecord(
      undefined,
      { old: 1 },
      { jobId: 'A', token: 't0', now: 1, presence: true },
    );
    // Integer-like keys first, an own __proto__, a lone surrogate: JSON's own spellings.
    const json = JSON.stringify(
      JSON.parse('{"coins":3,"1":[0,"é\\ud800",{"x":null}],"__proto__":{"x":1}}'),
    );
    const writer = { jobId: 'A', token: 't1', now: 2, presence: true };
    const extras = { schema: 2, userIds: ['u1'] };
    const records = [
      lockedRecord(previous, JSON.parse(json), writer, extras),
      releasedRecord(previous, JSON.parse(json), 't1', extras),
      markedRecord(previous, JSON.parse(json), { id: 'tr', journal: 'j' }, writer, extras),
    ];
    for (const record of records) {
      const text = recordJson(toStoreRecord(withDataJson(record, json)));
      expect(text).toBe(JSON.stringify(record));
    }
  });

  it("a save and the release stringify no whole record: the record's JSON reuses the data's, checked once", async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    profile.data.coins = 9;
    expect(await recordStringifies(() => bed.clock.run(profile.save()))).toBe(0);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 9 });
    profile.data.coins = 10;
    expect(await recordStringifies(() => bed.clock.run(profile.release()))).toBe(0);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 10 });
  });
});
