/**
 * A crash read on time: when the presence tells how long a holder's key has left
 * (`Presence.getEntry`), a waiting load reads again as the key expires instead of at its next
 * park, so a crashed holder is taken over one beat after its key expired: the floor of the
 * crash rule (two empty reads a beat apart), whatever the park schedule. Exact, on the virtual
 * clock. The same crashes read on the park schedule, with a presence that cannot tell, are in
 * slow-store-crash.test.ts and bounded-waits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverEvent, ErrorCode, type Presence, type Profile } from '../src/index.js';
import { MemoryMessenger, MemoryPresence, MemoryStore, VirtualClock } from '../src/testing.js';
import { faultyFleet, neverHears, recordingLogger, slowServers, stored } from './helpers.js';

/** Presence reads `b` made, as [ms since `from`, answer]. */
function readsOf(events: DataDriverEvent[], from: number): Array<[number, string]> {
  return events.flatMap((e) => (e.type === 'presence.read' ? [[e.time - from, e.answer]] : []));
}

describe('a crashed holder, over a presence that tells when its key expires', () => {
  it('is read stopped as its key expires and taken over one beat later: 13.01 s, the floor and a 10 ms margin', async () => {
    const { clock, store, log, server } = faultyFleet();
    const [a, b] = [server('A'), server('B')];
    const held = await clock.run(a.driver.load('p1'));
    held.data.coins = 5;
    await clock.run(held.save());
    await clock.run(a.handoff.beat());
    // A dies right after a beat: its key expires 10 s later; no more beats, replies or writes.
    await a.handoff.destroy();
    a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    const crashedAt = clock.now();
    const profile = await clock.run(b.driver.load('p1'));
    expect(clock.now() - crashedAt).toBe(13_010);
    // The park schedule until the read at 9.5 s, which says the key has 0.5 s left; the park
    // ends then and 10 ms later (a margin for a presence's whole-millisecond clock), and the
    // read at 10.01 s finds it gone (not at 11.5 s, the next park's end). The doubled park
    // reads again at 12.01 s, and the read a beat after the first empty one proves.
    expect(readsOf(b.events, crashedAt)).toEqual([
      [500, 'alive'],
      [1_500, 'alive'],
      [3_500, 'alive'],
      [5_500, 'alive'],
      [7_500, 'alive'],
      [9_500, 'alive'],
      [10_010, 'stopped'],
      [12_010, 'stopped'],
      [13_010, 'stopped'],
    ]);
    expect(profile.data).toEqual({ coins: 5 });
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    expect(log.warnings()).toContain(
      'took the lock of p1 from server A, which stopped beating presence.',
    );
  });

  it('on a slow store (500 ms calls, 10 ms presence reads): 13.54 s, the floor plus the margin, the reads and the take', async () => {
    const clock = new VirtualClock();
    const beats = new MemoryPresence(clock);
    const log = recordingLogger();
    const shared = { store: new MemoryStore(), messenger: new MemoryMessenger(), log };
    const server = slowServers(clock, shared, {
      storeMs: 500,
      presenceMs: 10,
      presenceFor: () => beats,
    });
    const [a, b] = [server('A'), server('B')];
    await clock.run(a.driver.load('p1'));
    await clock.run(a.handoff.beat());
    await a.handoff.destroy();
    a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    const crashedAt = clock.now();
    const events: DataDriverEvent[] = [];
    b.driver.on((event) => events.push(event));
    const profile: Profile<{ coins: number }> = await clock.run(b.driver.load('p1'));
    const reads = readsOf(events, crashedAt);
    // Expiry at 10 s and a beat (13 s), the 10 ms margin, the proving read's 10 ms after a
    // store attempt's 20 ms overlap, and the take's own 500 ms store call.
    expect(clock.now() - crashedAt).toBe(13_540);
    // The read after 7.54 s says the key has 2.46 s left: the next starts at 10.01 s, as it expires.
    expect(reads).toEqual([
      [1_010, 'alive'],
      [2_520, 'alive'],
      [5_030, 'alive'],
      [7_540, 'alive'],
      [10_020, 'stopped'],
      [12_530, 'stopped'],
      [13_040, 'stopped'],
    ]);
    expect(profile.active).toBe(true);
  });

  it('keeps its lock while it beats: the reads keep the park schedule and the join fails at 15 s', async () => {
    const { clock, server } = faultyFleet();
    const [a, b] = [server('A'), server('B')];
    await clock.run(a.driver.load('p1'));
    neverHears(a); // A beats on but never answers: a live holder that stalls
    const started = clock.now();
    const error = await clock.run(b.driver.load('p1').catch((caught: unknown) => caught));
    expect(error).toMatchObject({ code: ErrorCode.Locked });
    expect(clock.now() - started).toBe(15_000);
    // A's key always has 7 to 10 s left, more than any park: no read is brought forward.
    expect(readsOf(b.events, started)).toEqual(
      [500, 1_500, 3_500, 5_500, 7_500, 9_500, 11_500, 13_500, 15_000].map((at) => [at, 'alive']),
    );
  });
});

describe('a presence that keeps answering "alive, expiring now"', () => {
  it('makes no stream of reads: one read brought forward per park, 0.25 s after the one before', async () => {
    const clock = new VirtualClock();
    const beats = new MemoryPresence(clock);
    const log = recordingLogger();
    const store = new MemoryStore();
    // B's presence says A's key has 1 ms left, at every read.
    const liar: Presence = {
      specificationVersion: 'v1',
      set: (key, value, ttlSeconds) => beats.set(key, value, ttlSeconds),
      get: (key) => beats.get(key),
      getEntry: async (key) => ({ key, value: 'A', expiresInMs: 1 }),
    };
    const presenceFor = (jobId: string) => (jobId === 'B' ? liar : beats);
    // Two buses: A never hears B's requests, a live holder that keeps its lock.
    const serverOn = () =>
      slowServers(
        clock,
        { store, messenger: new MemoryMessenger(), log },
        {
          storeMs: 0,
          presenceMs: 0,
          presenceFor,
        },
      );
    const [a, b] = [serverOn()('A'), serverOn()('B')];
    await clock.run(a.driver.load('p1'));
    const started = clock.now();
    const events: DataDriverEvent[] = [];
    b.driver.on((event) => events.push(event));
    const error = await clock.run(b.driver.load('p1').catch((caught: unknown) => caught));
    expect(error).toMatchObject({ code: ErrorCode.Locked });
    expect(clock.now() - started).toBe(15_000);
    // Each trusted "1 ms left" brings the next read forward to the 0.25 s spacing; that read
    // finds A alive again, so its own expiry is not used and the park after it is whole.
    const reads = readsOf(events, started).map(([at]) => at);
    expect(reads).toEqual([
      500, 750, 2_750, 3_000, 5_000, 5_250, 7_250, 7_500, 9_500, 9_750, 11_750, 12_000, 14_000,
      14_250, 15_000,
    ]);
  });
});
