/**
 * What a trade in flight holds: a player who leaves and rejoins this server while a trade
 * holds their profile gets it back only after the trade's decision (never the data from before
 * it: the same-server rules wait while a trade holds the key); and a load that finds a trade marker of a live holder leaves that marker alone.
 */
import { describe, expect, it } from 'vitest';
import type { DataDriverEvent } from '../src/index.js';
import { MemoryHost } from '../src/testing.js';
import { handoffServers, stored, testBed } from './helpers.js';

describe('a rejoin while a trade holds the leaving profile', () => {
  it("waits for the trade's decision and the leave save after it, then loads the traded data", async () => {
    const bed = testBed();
    const a = bed.server('A', { localHandoffSeconds: 10 });
    const host = new MemoryHost('A');
    a.driver.attach(host);
    host.join('alice');
    host.join('bob');
    await bed.clock.advance(0);
    const alice = a.driver.profile('alice')!;
    const bob = a.driver.profile('bob')!;
    alice.data.coins = 10;
    // Every write of the trade's journal takes 2 s: the trade holds both profiles meanwhile.
    a.store.faults.inject({
      kind: 'latency',
      ms: 2_000,
      matches: (key) => key.includes('#trade/'),
      times: Number.POSITIVE_INFINITY,
    });
    const at: Record<string, number> = {};
    const started = bed.clock.now();
    a.driver.on((event: DataDriverEvent) => {
      at[event.type] ??= event.time - started;
    });
    const traded = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    await bed.clock.advance(100);
    host.leave('alice');
    await bed.clock.advance(100);
    host.join('alice');
    await bed.clock.run(traded);
    await bed.clock.advance(0);
    // The leave save waits for the trade (its two journal writes, 2 s each); the rejoin at
    // 200 ms waits for that save, and loads once the trade has committed and the save landed.
    expect(at).toMatchObject({
      'profile.releasing': 100,
      'load.waiting': 200,
      'trade.committed': 4_000,
      'profile.released': 4_000,
      'load.loaded': 4_000,
    });
    const rejoined = a.driver.profile('alice');
    expect(rejoined).not.toBe(alice);
    expect(rejoined?.data.coins).toBe(0);
    expect(a.driver.profile('bob')?.data.coins).toBe(10);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
  });
});

describe("a load that finds a live holder's trade marker", () => {
  it('leaves the marker and the journal alone: the live holder settles its own trade', async () => {
    const bed = testBed();
    const server = handoffServers(bed);
    const a = server('A');
    const b = server('B');
    const alice = await bed.clock.run(a.driver.load('alice'));
    const bob = await bed.clock.run(a.driver.load('bob'));
    alice.data.coins = 10;
    await bed.clock.run(alice.save());
    // A's commit of the journal hangs: both records carry the marker, the trade undecided.
    const hang = a.store.faults.inject({
      kind: 'stall',
      matches: (key) => key.includes('#trade/'),
      skip: 1,
    });
    const traded = a.driver.trade(alice, bob, (x, y) => {
      x.coins -= 10;
      y.coins += 10;
    });
    await bed.clock.advance(0);
    const marker = stored(bed.store, 'alice')?.meta.trade;
    expect(marker).toBeDefined();
    // B's join for alice: A is alive (it beats) and A does not hear B (its deliveries drop).
    a.messenger.faults.inject({
      kind: 'drop',
      operation: 'deliver',
      times: Number.POSITIVE_INFINITY,
    });
    const recovered: DataDriverEvent[] = [];
    b.driver.on((event) => {
      if (event.type === 'trade.recovered') recovered.push(event);
    });
    const joined = await bed.clock.run(b.driver.load('alice').catch((error: unknown) => error));
    expect(joined).toMatchObject({ code: 'Data.Locked' });
    expect(recovered).toEqual([]);
    expect(stored(bed.store, 'alice')?.meta.trade).toEqual(marker);
    expect(stored(bed.store, 'alice')?.meta.lock?.jobId).toBe('A');
    // A's commit lands: A settles its own trade.
    hang.remove();
    await bed.clock.run(traded);
    await bed.clock.advance(0);
    expect(stored(bed.store, 'alice')?.meta.trade).toBeUndefined();
    expect(stored(bed.store, 'bob')?.data).toEqual({ coins: 10 });
  });
});
