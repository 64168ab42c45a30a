/**
 * A rejoin on the server that retains a profile a trade still holds waits for the trade's
 * decision before it adopts: the adoption's save writes the profile's data over the record
 * that carries the trade's marker. Catches a planted bug of plants/plants.json.
 */
import { describe, expect, it } from 'vitest';
import type { DataSchema } from '../src/index.js';
import { stored, testBed } from './helpers.js';

const isJournal = (key: string) => key.includes('#trade/');

describe('a retained profile that a trade holds', () => {
  it('is adopted by a rejoin only once the trade is decided', async () => {
    const bed = testBed();
    // An asynchronous schema: the trade's check of alice's data is slower than her release's,
    // so the trade takes hold of her session once it has started leaving.
    let slow = true;
    const schema: DataSchema<{ coins: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) => {
          if (slow) await new Promise<void>((resolve) => bed.clock.schedule(100, resolve));
          return { value: value as { coins: number } };
        },
      },
    };
    const a = bed.server('A', {
      schema,
      defaults: { coins: 0 },
      autosaveSeconds: 30,
      localHandoffSeconds: 30,
    });
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    const order: string[] = [];
    bed.events.length = 0;
    a.driver.on((event) => {
      if (event.type === 'trade.committed' || event.type === 'profile.adopted')
        order.push(event.type);
    });
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    slow = false;
    // Alice leaves; her leave save fails, so her profile is retained (with the trade on it).
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/alice' });
    const leave = alice.release().catch(() => 'retained');
    // The trade's commit hangs for a while.
    const commit = a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      matches: isJournal,
      skip: 1,
    });
    expect(await bed.clock.run(leave)).toBe('retained');
    await bed.clock.advance(200);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    // Alice rejoins on A while the trade is still undecided.
    const rejoin = a.driver.load('alice');
    await bed.clock.advance(1_000);
    commit.release();
    await bed.clock.run(trade);
    const adopted = await bed.clock.run(rejoin);
    expect(order).toEqual(['trade.committed', 'profile.adopted']);
    expect(adopted.data).toEqual({ coins: 0 });
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')).toMatchObject({ data: { coins: 0 } });
    expect(stored(bed.store, 'bob')).toMatchObject({ data: { coins: 10 } });
  });
});
