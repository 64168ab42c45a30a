/**
 * A trade racing the loads of other servers: a recovering load that aborts it before its
 * commit lands, and a load that meets a live holder's marker. Each catches a planted bug of
 * plants/plants.json (`pnpm plant-check`).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { isJournal, stored, testBed, tradeWithHungCommit } from './helpers.js';

/** B has handoff off and waits a lock out by age: 20 + 5 s. */
const WAITS_OUT_BY_AGE = {
  lockTtlSeconds: 20,
  lockSkewSeconds: 5,
  autosaveSeconds: 10,
  lockWaitSeconds: 60,
} as const;

describe('a trade racing other servers', () => {
  it('aborted by a recovering load before its commit lands: both profiles keep their data in memory', async () => {
    const bed = testBed();
    const a = bed.server('A', WAITS_OUT_BY_AGE);
    const b = bed.driver('B', WAITS_OUT_BY_AGE);
    // The commit (the journal's second write) hangs: A is stalled past the lock's age.
    const { alice, bob, commit, trade } = await tradeWithHungCommit(bed, a);
    const outcome = trade.then(
      () => 'committed',
      (error: { code?: string }) => error.code,
    );
    await bed.clock.advance(0);
    expect(commit.hits).toBe(1);
    // B takes alice by age and settles her marker: the prepared journal is aborted.
    const aliceOnB = await bed.clock.run(b.load('alice'));
    expect(aliceOnB.data).toEqual({ coins: 10 });
    commit.release();
    await bed.clock.advance(0);
    expect(await outcome).toBe(ErrorCode.TradeFailed);
    // Nothing of the aborted trade reaches the profiles A's game still holds.
    expect(alice.data).toEqual({ coins: 10 });
    expect(bob.data).toEqual({ coins: 0 });
    expect(bed.events.filter((event) => event.type === 'trade.aborted')).toHaveLength(1);
  });

  it("a load that meets a live holder's marker waits, and leaves the trade to commit", async () => {
    const bed = testBed();
    const a = bed.server('A', WAITS_OUT_BY_AGE);
    const b = bed.driver('B', WAITS_OUT_BY_AGE);
    const { alice, bob, commit, trade } = await tradeWithHungCommit(bed, a);
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeDefined();
    // B's load meets alice's lock, held by a live A, with the marker of A's trade on it.
    const load = b.load('alice').catch((error: unknown) => error);
    await bed.clock.advance(1_000);
    const journalKey = bed.store.keys().find(isJournal);
    expect(bed.store.peek(journalKey!)).toMatchObject({ state: 'prepared' });
    commit.release();
    await bed.clock.run(trade);
    expect(alice.data).toEqual({ coins: 0 });
    expect(bob.data).toEqual({ coins: 10 });
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')).toMatchObject({ data: { coins: 0 } });
    // B never wrote: it is still waiting for A's lock.
    expect(stored(bed.store, 'alice')?.meta.lock?.jobId).toBe('A');
    await a.driver.close();
    expect(await bed.clock.run(load)).toMatchObject({ data: { coins: 0 } });
  });
});
