/**
 * A trade refused or failed says why (`trade/trade.ts`): the same profile twice, an inactive
 * profile, a profile already in a trade, a trade function that throws (its error kept as the
 * cause), and a prepare that failed; each changes nothing. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { isJournal, stored, testBed, tradeWithHungCommit } from './helpers.js';

async function failure(promise: Promise<unknown>): Promise<DataDriverError> {
  return promise.then(
    () => {
      throw new Error('the trade did not fail');
    },
    (error: DataDriverError) => error,
  );
}

async function two() {
  const bed = testBed();
  const { driver, store } = bed.server('A');
  const alice = await bed.clock.run(driver.load('alice'));
  const bob = await bed.clock.run(driver.load('bob'));
  alice.data.coins = 10;
  await bed.clock.run(alice.save());
  return { bed, driver, store, alice, bob };
}

const move = (x: { coins: number }, y: { coins: number }) => {
  x.coins -= 10;
  y.coins += 10;
};

describe('a trade refused or failed', () => {
  it('the same profile twice: Data.InvalidArgument', async () => {
    const { bed, driver, alice } = await two();
    const error = await bed.clock.run(failure(driver.trade(alice, alice, move)));
    expect(error.message).toBe('Data.InvalidArgument: a trade needs two different profiles');
    expect(alice.data).toEqual({ coins: 10 });
  });

  it('a released profile: refused by the driver (not held here), nothing written', async () => {
    const { bed, driver, alice, bob } = await two();
    await bed.clock.run(bob.release());
    const before = JSON.stringify(bed.store.peek('PlayerData/alice'));
    const error = await bed.clock.run(failure(driver.trade(alice, bob, move)));
    expect(error.message).toBe('Data.InvalidArgument: that profile is not held by this driver');
    expect(JSON.stringify(bed.store.peek('PlayerData/alice'))).toBe(before);
  });

  it('a profile already in a trade: Data.TradeFailed naming it', async () => {
    const bed = testBed();
    const server = bed.server('A');
    const { alice, commit } = await tradeWithHungCommit(bed, server);
    await bed.clock.advance(10);
    const carol = await bed.clock.run(server.driver.load('carol'));
    const error = await bed.clock.run(failure(server.driver.trade(alice, carol, move)));
    expect(error.message).toBe('Data.TradeFailed: alice is already in a trade');
    commit.release();
  });

  it('a trade function that throws: Data.TradeFailed with its error as the cause, nothing changed', async () => {
    const { bed, driver, alice, bob } = await two();
    const thrown = new Error('no such item');
    const error = await bed.clock.run(
      failure(
        driver.trade(alice, bob, () => {
          throw thrown;
        }),
      ),
    );
    expect(error.code).toBe(ErrorCode.TradeFailed);
    expect(error.message).toMatch(
      /^Data\.TradeFailed: .*the trade function threw; nothing changed$/,
    );
    expect(error.cause).toBe(thrown);
    expect([alice.data, bob.data]).toEqual([{ coins: 10 }, { coins: 0 }]);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
  });

  it('a prepare whose write failed: Data.TradeFailed saying it could not be prepared, and aborted', async () => {
    const { bed, driver, store, alice, bob } = await two();
    store.faults.inject({ kind: 'fail', operation: 'update', key: 'PlayerData/bob' });
    const error = await bed.clock.run(failure(driver.trade(alice, bob, move)));
    expect(error.code).toBe(ErrorCode.TradeFailed);
    expect(error.message).toMatch(
      /could not be prepared: .*injected failure of update PlayerData\/bob/,
    );
    expect(error.cause).toBeDefined();
    expect([alice.data, bob.data]).toEqual([{ coins: 10 }, { coins: 0 }]);
    const journals = [...bed.store.keys()].filter(isJournal);
    expect(journals.map((key) => (bed.store.peek(key) as { state?: string })?.state)).not.toContain(
      'committed',
    );
  });
});
