/** Issue 21: a record's JSON is made once per write, measured by core and written by the store. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordJson } from '../src/ports/index.js';
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

  it('a save stringifies its record once: the size check and the store share the string', async () => {
    const bed = testBed();
    const profile = await bed.clock.run(bed.driver('A').load('p1'));
    profile.data.coins = 9;
    expect(await recordStringifies(() => bed.clock.run(profile.save()))).toBe(1);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 9 });
    expect(await recordStringifies(() => bed.clock.run(profile.release()))).toBe(1);
  });
});
