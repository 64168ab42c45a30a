/**
 * A trade whose schema check is asynchronous: the profiles are checked again once the verdict
 * is in, so a leave or another trade that began while it was awaited is never overrun.
 */
import { describe, expect, it } from 'vitest';
import { type DataSchema, ErrorCode } from '../src/index.js';
import { testBed } from './helpers.js';

/** Passes every value, a virtual 100 ms later. */
function slowSchema(bed: ReturnType<typeof testBed>): DataSchema<{ coins: number }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) =>
        new Promise((resolve) => {
          bed.clock.schedule(100, () => resolve({ value: value as { coins: number } }));
        }),
    },
  };
}

const outcomeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'committed',
    (error: { code?: string }) => error.code,
  );

describe('a trade with an asynchronous schema', () => {
  it('two trades of one profile begun during one check: one commits, the other fails, coins conserved', async () => {
    const bed = testBed();
    const a = bed.driver('A', { schema: slowSchema(bed) });
    const [alice, bob, carol] = await bed.clock.run(
      Promise.all([a.load('alice'), a.load('bob'), a.load('carol')]),
    );
    alice.data.coins = 10;
    const give = (x: { coins: number }, y: { coins: number }) => {
      x.coins -= 10;
      y.coins += 10;
    };
    const toBob = outcomeOf(a.trade(alice, bob, give));
    const toCarol = outcomeOf(a.trade(alice, carol, give));
    await bed.clock.advance(1_000);
    // The first holds alice from the tick it was called in; the second finds her in a trade.
    expect([await toBob, await toCarol]).toEqual(['committed', ErrorCode.TradeFailed]);
    expect([alice.data.coins, bob.data.coins, carol.data.coins]).toEqual([0, 10, 0]);
  });

  it('a leave begun during the check waits for the trade: the release lands with the traded data, no marker, no journal', async () => {
    const bed = testBed();
    const a = bed.driver('A', { schema: slowSchema(bed) });
    const [alice, bob] = await bed.clock.run(Promise.all([a.load('alice'), a.load('bob')]));
    alice.data.coins = 10;
    const trade = outcomeOf(
      a.trade(alice, bob, (x, y) => {
        x.coins -= 10;
        y.coins += 10;
      }),
    );
    const released = alice.release();
    await bed.clock.advance(1_000);
    await released;
    expect(await trade).toBe('committed');
    expect(bob.data.coins).toBe(10);
    const record = bed.store.peek('PlayerData/alice') as { data: unknown; meta: object };
    expect(record.data).toEqual({ coins: 0 });
    expect(record.meta).not.toHaveProperty('trade');
    expect(record.meta).not.toHaveProperty('lock');
    expect(bed.store.keys().filter((key) => key.includes('#trade/'))).toEqual([]);
  });

  it('a schema that refuses after a wait frees both profiles: a save goes on, nothing written by the trade', async () => {
    const bed = testBed();
    const refusing: DataSchema<{ coins: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) =>
          new Promise((resolve) => {
            const coins = (value as { coins: number }).coins;
            bed.clock.schedule(100, () =>
              resolve(
                coins < 0
                  ? { issues: [{ message: 'negative', path: ['coins'] }] }
                  : { value: value as { coins: number } },
              ),
            );
          }),
      },
    };
    const a = bed.driver('A', { schema: refusing });
    const [alice, bob] = await bed.clock.run(Promise.all([a.load('alice'), a.load('bob')]));
    const before = bed.store.keys().map((key) => [key, bed.store.peekJson(key)]);
    const trade = outcomeOf(
      a.trade(alice, bob, (x, y) => {
        x.coins -= 10;
        y.coins += 10;
      }),
    );
    await bed.clock.advance(1_000);
    expect(await trade).toBe(ErrorCode.InvalidData);
    expect(bed.store.keys().map((key) => [key, bed.store.peekJson(key)])).toEqual(before);
    alice.data.coins = 3;
    await bed.clock.run(alice.save());
    expect(bed.store.peek('PlayerData/alice')).toMatchObject({ data: { coins: 3 } });
    const next = outcomeOf(a.trade(alice, bob, () => undefined));
    await bed.clock.advance(1_000);
    expect(await next).toBe('committed');
  });
});
