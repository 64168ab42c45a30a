/** Issue 21: a record's JSON is made once per write, measured by core and written by the store. */
import fc from 'fast-check';
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

describe("a take's JSON", () => {
  it('of a key this server released stringifies neither the record nor its data: the release wrote that JSON', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    first.data.coins = 4;
    await bed.clock.run(first.release());
    const stringify = vi.spyOn(JSON, 'stringify');
    const again = await bed.clock.run(driver.load('p1'));
    const ofData = stringify.mock.calls.filter(([value]) => {
      return typeof value === 'object' && value !== null && ('coins' in value || 'data' in value);
    });
    stringify.mockRestore();
    expect(ofData).toEqual([]);
    expect(again.data).toEqual({ coins: 4 });
    const json = bed.store.peekJson('PlayerData/p1');
    expect(json).toBe(JSON.stringify({ data: again.data, meta: stored(bed.store, 'p1')?.meta }));
  });

  it('is exactly the JSON of the record core keeps, for any data, loaded from a release here or cold', async () => {
    const fields = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(fields, fc.boolean(), async (extra, cold) => {
        const bed = testBed();
        const driver = bed.driver('A');
        const first = await bed.clock.run(driver.load('p1'));
        for (const [key, value] of Object.entries(extra)) {
          Object.defineProperty(first.data, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        const saved = JSON.stringify(first.data);
        await bed.clock.run(first.release());
        // Cold: another driver loads it, with no snapshot of its release.
        const loader = cold ? bed.driver('B') : driver;
        const again = await bed.clock.run(loader.load('p1'));
        expect(JSON.stringify(again.data)).toBe(saved);
        const meta = stored(bed.store, 'p1')?.meta;
        expect(bed.store.peekJson('PlayerData/p1')).toBe(
          JSON.stringify({ data: again.data, meta }),
        );
      }),
      { numRuns: 60 },
    );
  });
});
