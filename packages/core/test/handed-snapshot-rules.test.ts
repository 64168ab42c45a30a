/**
 * The rule for a record a holder's reply hands to a load (`rules/handed-snapshot.ts`), and the
 * store a load's first run sees with it (`load/handed-store.ts`): a run that writes nothing on
 * it calls no store, one that writes goes to the store with it as `expected`, and one that
 * throws goes to the store as if there were no reply.
 */
import { describe, expect, it, vi } from 'vitest';
import { HandedStore } from '../src/load/handed-store.js';
import type { StoreRecord, StoreTransform } from '../src/ports.js';
import { handedSnapshot, lockedFor } from '../src/rules/index.js';
import { MemoryStore } from '../src/testing.js';

const load = { jobId: 'B', token: 'tB' };
const lock = { jobId: 'B', token: 'tB', time: 1, presence: true };
const record = { data: { coins: 7 }, meta: { version: 3, lock } };

describe('handedSnapshot', () => {
  const rows: Array<[name: string, json: string, taken: boolean]> = [
    ['a record locked for the load', JSON.stringify(record), true],
    [
      'the lock of another token',
      JSON.stringify({ ...record, meta: { version: 3, lock: { ...lock, token: 'tC' } } }),
      false,
    ],
    [
      'the lock of another server',
      JSON.stringify({ ...record, meta: { version: 3, lock: { ...lock, jobId: 'C' } } }),
      false,
    ],
    ['no lock', JSON.stringify({ data: {}, meta: { version: 3 } }), false],
    [
      'a lock that is not an object',
      JSON.stringify({ data: {}, meta: { version: 3, lock: 'tB' } }),
      false,
    ],
    ['no meta', JSON.stringify({ data: {} }), false],
    ['not JSON', '{"data":', false],
    ['JSON null', 'null', false],
    ['an array', '[]', false],
    ['a string', '"tB"', false],
    // Taken here: the load's write checks a record as it checks any stored one (`parseRecord`).
    [
      'a lock for the load on a record core would refuse',
      JSON.stringify({ data: 7, meta: { lock } }),
      true,
    ],
    [
      'a __proto__ key in the meta, with the lock beside it',
      `{"data":{},"meta":{"__proto__":{"lock":1},"lock":${JSON.stringify(lock)}}}`,
      true,
    ],
    [
      'a lock only under __proto__',
      `{"data":{},"meta":{"__proto__":{"lock":${JSON.stringify(lock)}}}}`,
      false,
    ],
  ];
  it.each(rows)('%s', (_name, json, taken) => {
    const snapshot = handedSnapshot({ version: 'v9', json }, load);
    expect(snapshot).toEqual(taken ? { record: JSON.parse(json), version: 'v9' } : undefined);
  });

  it('lockedFor reads only the lock', () => {
    expect(lockedFor(record, 'B', 'tB')).toBe(true);
    expect(lockedFor(record, 'B', 'tC')).toBe(false);
    expect(lockedFor({ data: {}, meta: [] } as unknown as StoreRecord, 'B', 'tB')).toBe(false);
  });
});

describe('HandedStore', () => {
  const snapshot = { record, version: 'v3' };
  const setup = () => {
    const store = new MemoryStore();
    const update = vi.spyOn(store, 'update');
    return { store, update, handed: new HandedStore(store, snapshot) };
  };

  it('a run that writes nothing settles on the snapshot with no store call', async () => {
    const { update, handed } = setup();
    const seen: unknown[] = [];
    const transform: StoreTransform = (current) => void seen.push(current);
    expect(await handed.update('k', transform)).toBe(snapshot);
    expect(seen).toEqual([record]);
    expect(update).not.toHaveBeenCalled();
  });

  it('a run that writes goes to the store with the snapshot as expected', async () => {
    const { update, handed } = setup();
    const transform: StoreTransform = (current) => ({ ...current, data: { coins: 8 } });
    await handed.update('k', transform, { keepVersion: true }).catch(() => undefined);
    expect(update).toHaveBeenCalledWith('k', transform, { keepVersion: true, expected: snapshot });
  });

  it('a run that throws goes to the store as if there were no snapshot', async () => {
    const { store, update, handed } = setup();
    store.put('k', { data: { coins: 1 }, meta: { version: 1 } });
    const seen: unknown[] = [];
    const transform: StoreTransform = (current) => {
      seen.push(current);
      if (current === record) throw new Error('refused');
      return undefined;
    };
    await handed.update('k', transform);
    expect(update).toHaveBeenCalledWith('k', transform, undefined);
    expect(seen).toEqual([record, { data: { coins: 1 }, meta: { version: 1 } }]);
  });

  it("keeps the store's record limit", () => {
    const store = new MemoryStore({ maxRecordBytes: 4096 });
    expect(new HandedStore(store, snapshot).maxRecordBytes).toBe(4096);
  });
});
