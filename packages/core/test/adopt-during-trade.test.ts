/**
 * A rejoin on the server where a leave waits for a trade's decision: the leave save comes
 * after the decision (it writes the traded data and clears the marker), and the rejoin
 * adopts the retained profile only after that, with the traded data. A trade takes hold of
 * its profiles in the tick it is called in, even with an asynchronous schema, so a trade
 * never holds a profile that has begun to leave (`trade-async-schema.test.ts`); the rule that
 * a rejoin waits for a trade holding a retained profile stays in `same-server-rules.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { DataSchema } from '../src/index.js';
import { isJournal, stored, testBed } from './helpers.js';

describe('a leave that waits for a trade', () => {
  it('is adopted by a rejoin only once the trade is decided and the leave save failed after it', async () => {
    const bed = testBed();
    // An asynchronous schema: the trade's check outlasts the release's start.
    const schema: DataSchema<{ coins: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) => {
          await new Promise<void>((resolve) => bed.clock.schedule(100, resolve));
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
    a.driver.on((event) => {
      if (
        event.type === 'trade.committed' ||
        event.type === 'profile.adopted' ||
        event.type === 'profile.release-failed'
      )
        order.push(event.type);
    });
    // The trade's commit hangs for a while.
    const commit = a.store.faults.inject({
      kind: 'stall',
      operation: 'update',
      matches: isJournal,
      skip: 1,
    });
    const trade = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    // Alice leaves while the trade checks: her leave waits for its decision.
    const leave = alice.release().catch(() => 'retained');
    await bed.clock.advance(200);
    expect(commit.hits).toBe(1);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    // Her leave save will fail: the profile is retained, the trade's data in it.
    a.store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/alice' });
    // Alice rejoins on A while the trade is still undecided.
    const rejoin = a.driver.load('alice');
    await bed.clock.advance(1_000);
    expect(order).toEqual([]);
    commit.release();
    await bed.clock.run(trade);
    expect(await bed.clock.run(leave)).toBe('retained');
    const adopted = await bed.clock.run(rejoin);
    expect(adopted).toBe(alice);
    expect(order).toEqual(['trade.committed', 'profile.release-failed', 'profile.adopted']);
    expect(adopted.data).toEqual({ coins: 0 });
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')).toMatchObject({ data: { coins: 0 } });
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(stored(bed.store, 'bob')).toMatchObject({ data: { coins: 10 } });
  });
});
