/**
 * A load applies pending messages before the game sees the profile (its pass at load). When
 * that pass's write finds the lock already taken by another server (the loading server's
 * calls stalled past lockTtlSeconds, and the other server took the lock by age), the load
 * fails with `Data.LockLost`: the game never gets a profile that is already lost, `onLoad`
 * never runs, and the player is kicked once, as for any failed load, never with the lost-lock
 * message while their load is still in progress. Found by the simulator (seed 10309).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { MemoryHost } from '../../src/testing.js';
import { stored } from '../helpers.js';
import { appliedIds, messagesBed, pendingIds } from './bed.js';

describe('a load whose message pass finds the lock taken', () => {
  it('fails with Data.LockLost: no onLoad, one kick for the failed load, nothing written by the loser', async () => {
    const m = messagesBed();
    const { clock, store } = m.bed;
    const w = m.bed.server('W');
    await clock.run(w.driver.send('p1', { coins: 5 }, { id: 'g1' }));
    // A's read of the inbox, after its take committed, stalls for 260 s.
    const { a, host, loaded, failures, read, started } = joinStalledOnA(m);
    await clock.advance(1_000);
    expect(read.hits).toBe(1);
    expect(stored(store, 'p1')?.meta.lock?.jobId).toBe('A');
    // B loads once A's lock is older than lockTtlSeconds (180 s) and the skew: taken by age.
    await clock.advance(240_000);
    // B has no onMessage (a server of an older build): g1 stays pending for A's pass.
    const b = m.bed.server('B');
    const profile = await clock.run(b.driver.load('p1'));
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    const writtenByB = JSON.stringify(store.peek('PlayerData/p1'));
    await clock.advance(19_000);
    read.release();
    await clock.advance(1_000);
    expect(failures).toEqual([`${ErrorCode.LockLost} at ${started + 260_000}`]);
    expect(loaded).toEqual([]);
    expect(host.kicks).toEqual([
      { player: 'p1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    expect(a.driver.profile('p1')).toBeUndefined();
    // A applied g1 only in memory: its write was refused, B's record stands as B wrote it,
    // and g1 waits in the inbox for a server that can write it.
    expect(m.ids()).toEqual(['g1']);
    expect(JSON.stringify(store.peek('PlayerData/p1'))).toBe(writtenByB);
    expect(appliedIds(store, 'p1')).toEqual([]);
    expect(pendingIds(store, 'p1')).toEqual(['g1']);
  });

  it('with nothing to apply, confirms its lock before resolving once it ran slow: Data.LockLost, the other server’s record untouched', async () => {
    // As seed 30025: the pass's read stalled past the time another server needed to take the
    // lock; it found nothing to write, so no write could tell the load its lock was gone.
    const m = messagesBed();
    const { clock, store } = m.bed;
    const { a, host, loaded, failures, read, started } = joinStalledOnA(m);
    await clock.advance(240_000);
    expect(read.hits).toBe(1);
    const b = m.bed.server('B');
    const profile = await clock.run(b.driver.load('p1'));
    profile.data.coins = 9;
    await clock.run(profile.save());
    const writtenByB = JSON.stringify(store.peek('PlayerData/p1'));
    await clock.advance(20_000);
    read.release();
    const releasedAt = clock.now();
    expect(releasedAt - started).toBeGreaterThan(250_000);
    await clock.advance(1_000);
    // The read that confirms the take is answered at once: the load fails when the stall ends.
    expect(failures).toEqual([`${ErrorCode.LockLost} at ${releasedAt}`]);
    expect(loaded).toEqual([]);
    expect(host.kicks).toEqual([
      { player: 'p1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    expect(a.driver.profile('p1')).toBeUndefined();
    expect(JSON.stringify(store.peek('PlayerData/p1'))).toBe(writtenByB);
  });

  it('a load that ran fast resolves with no confirming read', async () => {
    const m = messagesBed();
    const a = m.server('A');
    // Counts the reads (a latency fault of 0 ms hits every call and changes nothing).
    const count = (key: string) =>
      a.store.faults.inject({ kind: 'latency', operation: 'get', key, ms: 0, times: Infinity });
    const [inboxReads, profileReads] = [count('PlayerData#inbox/p1'), count('PlayerData/p1')];
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    expect(profile.active).toBe(true);
    // The take is the load's one write (no read first); then the pass reads the inbox, and that
    // is all: no read of the profile after the take.
    expect([inboxReads.hits, profileReads.hits]).toEqual([1, 0]);
  });
});

/**
 * Server A (an `onMessage`, attached to a host) where p1 joins while A's read of p1's inbox,
 * the load's message pass after its take, stalls until `read.release()`: the loads it
 * reported failed (code and time) and the profiles `onLoad` got.
 */
function joinStalledOnA(m: ReturnType<typeof messagesBed>) {
  const { clock } = m.bed;
  const a = m.server('A');
  const host = new MemoryHost('A');
  const loaded: string[] = [];
  a.driver.attach(host, { onLoad: (profile) => loaded.push(profile.key) });
  const failures: string[] = [];
  a.driver.on((event) => {
    if (event.type === 'load.failed') failures.push(`${event.error.code} at ${clock.now()}`);
  });
  const read = a.store.faults.inject({
    kind: 'stall',
    operation: 'get',
    key: 'PlayerData#inbox/p1',
  });
  const started = clock.now();
  host.join('p1');
  return { a, host, loaded, failures, read, started };
}
