import { describe, expect, it } from 'vitest';
import { DataDriver, ErrorCode, type Profile } from '../src/index.js';
import { isWellFormed } from '../src/ports.js';
import { utf8Bytes } from '../src/rules/index.js';
import { MemoryStore } from '../src/testing.js';
import { testBed } from './helpers.js';

type Bag = { coins: number; note?: string };

async function twoProfiles(maxRecordBytes: number) {
  const bed = testBed();
  const store = new MemoryStore({ maxRecordBytes });
  const a = bed.driver('A', { store }) as unknown as DataDriver<Bag>;
  const big = (await bed.clock.run(a.load('big'))) as Profile<Bag>;
  const small = (await bed.clock.run(a.load('small'))) as Profile<Bag>;
  return { bed, store, a, big, small };
}

describe('records over the store maxRecordBytes', () => {
  it('a save is refused with Data.TooLarge before it is sent; other profiles save; trimmed, it saves', async () => {
    const { bed, store, big, small } = await twoProfiles(1_000);
    const before = store.peekJson('PlayerData/big');
    big.data.note = 'x'.repeat(2_000);
    small.data.coins = 5;
    const [refused, saved] = await bed.clock.run(Promise.allSettled([big.save(), small.save()]));
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.TooLarge } });
    expect((refused as PromiseRejectedResult).reason.message).toMatch(
      /the record of big would be 2\d{3} bytes, over the store's maxRecordBytes of 1000; nothing was written/,
    );
    expect(saved.status).toBe('fulfilled');
    expect(store.peekJson('PlayerData/big')).toBe(before);
    expect(store.peek('PlayerData/small')).toMatchObject({ data: { coins: 5 } });
    expect(big.active).toBe(true);
    big.data.note = 'short';
    await bed.clock.run(big.release());
    expect(store.peek('PlayerData/big')).toMatchObject({ data: { note: 'short' } });
  });

  it('a trade whose journal would be over the limit is refused before any write', async () => {
    // Each record fits; the journal holds both datas and does not.
    const { bed, store, a, big, small } = await twoProfiles(700);
    big.data.note = 'y'.repeat(300);
    small.data.note = 'z'.repeat(300);
    await bed.clock.run(Promise.all([big.save(), small.save()]));
    const before = [store.peekJson('PlayerData/big'), store.peekJson('PlayerData/small')];
    await expect(bed.clock.run(a.trade(big, small, (x) => void x))).rejects.toMatchObject({
      code: ErrorCode.TooLarge,
    });
    expect(store.keys().filter((key) => key.includes('#trade/'))).toEqual([]);
    expect([store.peekJson('PlayerData/big'), store.peekJson('PlayerData/small')]).toEqual(before);
  });

  it('a load of a stored record over the limit is refused with Data.TooLarge, untouched', async () => {
    const bed = testBed();
    const store = new MemoryStore({ maxRecordBytes: 100 });
    const json = `{"data":{"note":"${'n'.repeat(200)}"},"meta":{"version":1}}`;
    store.putJson('PlayerData/p1', json);
    const a = bed.driver('A', { store });
    await expect(bed.clock.run(a.load('p1'))).rejects.toMatchObject({ code: ErrorCode.TooLarge });
    expect(store.peekJson('PlayerData/p1')).toBe(json);
  });

  it('a store declaring a maxRecordBytes that is not a positive integer is refused', () => {
    const store = {
      ...new MemoryStore(),
      maxRecordBytes: 0,
      update: async () => undefined,
      get: async () => undefined,
      specificationVersion: 'v2' as const,
    };
    expect(() => new DataDriver({ name: 'P', defaults: {}, store })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
    expect(() => new MemoryStore({ maxRecordBytes: 1.5 })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('the memory store declares 16 MiB by default', () => {
    expect(new MemoryStore().maxRecordBytes).toBe(16 * 1024 * 1024);
  });
});

describe('utf8Bytes', () => {
  it.each([
    ['a', 1],
    ['é', 2],
    ['€', 3],
    ['🎮', 4],
    ['\uD800', 3],
    ['a\uDC00b', 5],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8Bytes(text)).toBe(bytes);
    if (isWellFormed(text)) expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
  });
});
