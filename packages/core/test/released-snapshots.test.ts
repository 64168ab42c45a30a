/**
 * Issue 21: a load of a key this server released starts from the release's snapshot, so a
 * player back on the server they left loads in one compare-and-set with no read; a snapshot
 * the record has moved past is answered by the store's current record, never loaded itself.
 */
import { describe, expect, it } from 'vitest';
import type { StoreSnapshot } from '../src/ports.js';
import { SessionRegistry } from '../src/registry/registry.js';
import { RELEASED_SNAPSHOT_LIMITS, ReleasedSnapshots } from '../src/registry/released-snapshots.js';
import type { ProfileSession } from '../src/session/profile-session.js';
import { MemoryHost } from '../src/testing.js';
import { callsSince, handoffServers, stored, testBed } from './helpers.js';

const snapshot = (version: string): StoreSnapshot => ({
  record: { data: {}, meta: { version: 1 } },
  version,
});

describe('ReleasedSnapshots', () => {
  it('gives a kept snapshot once, and nothing for a key it never kept', () => {
    const kept = new ReleasedSnapshots(() => 0);
    const one = snapshot('v1');
    kept.keep('p1', one);
    expect(kept.take('p2')).toBeUndefined();
    expect(kept.take('p1')?.snapshot).toBe(one);
    expect(kept.take('p1')).toBeUndefined();
  });

  it('forgets a key kept with no snapshot (erased, lost), and keeps only the newest of a key', () => {
    const kept = new ReleasedSnapshots(() => 0);
    kept.keep('p1', snapshot('v1'));
    kept.keep('p1', undefined);
    expect(kept.take('p1')).toBeUndefined();
    const newer = snapshot('v3');
    kept.keep('p2', snapshot('v2'));
    kept.keep('p2', newer);
    expect(kept.size).toBe(1);
    expect(kept.take('p2')?.snapshot).toBe(newer);
  });

  it('gives nothing for a snapshot older than the age limit, and drops the old ones as it keeps', () => {
    let now = 0;
    const kept = new ReleasedSnapshots(() => now);
    kept.keep('p1', snapshot('v1'));
    now = RELEASED_SNAPSHOT_LIMITS.maxAgeMs;
    expect(kept.take('p1')?.snapshot.version).toBe('v1');
    kept.keep('p1', snapshot('v2'));
    kept.keep('p2', snapshot('v3'));
    now += RELEASED_SNAPSHOT_LIMITS.maxAgeMs + 1;
    expect(kept.take('p1')).toBeUndefined();
    kept.keep('p3', snapshot('v4'));
    expect(kept.size).toBe(1); // p2 expired and was dropped when p3 was kept
  });

  it('keeps at most the entry limit, dropping the oldest first', () => {
    const kept = new ReleasedSnapshots(() => 0);
    const limit = RELEASED_SNAPSHOT_LIMITS.maxEntries;
    for (let index = 0; index <= limit; index += 1) kept.keep(`p${index}`, snapshot(`v${index}`));
    expect(kept.size).toBe(limit);
    expect(kept.take('p0')).toBeUndefined();
    expect(kept.take(`p${limit}`)?.snapshot.version).toBe(`v${limit}`);
  });
});

function counting() {
  const bed = testBed();
  return { bed, since: callsSince(bed.store) };
}

describe('ReleasedSnapshots, its memory', () => {
  it('keeps at most the char limit of data JSON, dropping the oldest first, and none bigger than it', () => {
    const kept = new ReleasedSnapshots(() => 0);
    const { maxChars } = RELEASED_SNAPSHOT_LIMITS;
    kept.keep('big', snapshot('v0'), maxChars + 1);
    expect(kept.size).toBe(0);
    kept.keep('p1', snapshot('v1'), maxChars / 2);
    kept.keep('p2', snapshot('v2'), maxChars / 2);
    kept.keep('p3', snapshot('v3'), 1);
    expect(kept.take('p1')).toBeUndefined();
    expect(kept.take('p2')?.snapshot.version).toBe('v2');
    kept.keep('p4', snapshot('v4'), maxChars); // alone under the limit once p3 is dropped
    expect(kept.take('p3')).toBeUndefined();
    expect(kept.take('p4')?.snapshot.version).toBe('v4');
  });

  it('counts a key kept again once, as its newest, and puts it last: the oldest of the others goes first', () => {
    const kept = new ReleasedSnapshots(() => 0);
    const { maxChars } = RELEASED_SNAPSHOT_LIMITS;
    kept.keep('p1', snapshot('v1'), maxChars / 2);
    kept.keep('p2', snapshot('v2'), maxChars / 4);
    kept.keep('p1', snapshot('v3'), maxChars / 2); // half the limit in all for p1, not a whole
    kept.keep('p3', snapshot('v4'), maxChars / 4); // exactly at the limit: nothing dropped
    expect(kept.size).toBe(3);
    kept.keep('p4', snapshot('v5'), 1); // over it: p2 goes, the oldest now that p1 came again
    expect(kept.take('p2')).toBeUndefined();
    expect(kept.take('p1')?.snapshot.version).toBe('v3');
    expect(kept.take('p3')?.snapshot.version).toBe('v4');
    expect(kept.take('p4')?.snapshot.version).toBe('v5');
  });

  it('frees the data of a key kept again with no snapshot, or with one over the char limit', () => {
    const { maxChars } = RELEASED_SNAPSHOT_LIMITS;
    for (const [again, chars] of [
      [undefined, 0],
      [snapshot('v2'), maxChars + 1],
    ] as const) {
      const kept = new ReleasedSnapshots(() => 0);
      kept.keep('p1', snapshot('v1'), maxChars / 2);
      kept.keep('p1', again, chars);
      kept.keep('p2', snapshot('v3'), maxChars); // fits only once p1's half is freed
      expect(kept.take('p1')).toBeUndefined();
      expect(kept.take('p2')?.snapshot.version).toBe('v3');
    }
  });

  it('keeps a release that comes after its driver closed not at all, and forgets those kept before', () => {
    const registry = new SessionRegistry(() => 0);
    const session = (key: string) =>
      ({ key, token: `t-${key}`, lastWritten: { json: '{}' } }) as unknown as ProfileSession;
    registry.forget(session('p1'), snapshot('v1'));
    registry.close();
    registry.forget(session('p2'), snapshot('v2'));
    expect(registry.takeReleased('p1')).toBeUndefined();
    expect(registry.takeReleased('p2')).toBeUndefined();
    const open = new SessionRegistry(() => 0);
    open.forget(session('p1'), snapshot('v1'));
    expect(open.takeReleased('p1')?.snapshot.version).toBe('v1');
  });
});

describe('a load of a key this server released', () => {
  it('is one compare-and-set with no read, and loads the data the release wrote', async () => {
    const { bed, since } = counting();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    first.data.coins = 8;
    await bed.clock.run(first.release());
    since();
    const again = await bed.clock.run(driver.load('p1'));
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    expect(again.data).toEqual({ coins: 8 });
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('A');
  });

  it('after another server wrote the record, loads what that server wrote, in two compare-and-sets and no read', async () => {
    const { bed, since } = counting();
    const a = bed.driver('A');
    const b = bed.driver('B');
    const first = await bed.clock.run(a.load('p1'));
    first.data.coins = 1;
    await bed.clock.run(first.release());
    const onB = await bed.clock.run(b.load('p1'));
    onB.data.coins = 2;
    await bed.clock.run(onB.release());
    since();
    const back = await bed.clock.run(a.load('p1'));
    // The first compare-and-set fails on the moved version; its reply carries B's record.
    expect(since()).toEqual({ reads: 0, compareAndSets: 2 });
    expect(back.data).toEqual({ coins: 2 });
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('A');
  });

  it('after a release another server asked for, reads first: that server took the record', async () => {
    const { bed, since } = counting();
    const server = handoffServers(bed);
    const a = server('A').driver;
    const b = server('B').driver;
    a.attach(new MemoryHost('A'));
    b.attach(new MemoryHost('B'));
    const onA = await bed.clock.run(a.load('p1'));
    onA.data.coins = 4;
    const onB = await bed.clock.run(b.load('p1')); // asks A, which releases for it
    expect(onB.data).toEqual({ coins: 4 });
    await bed.clock.run(onB.release());
    since();
    const back = await bed.clock.run(a.load('p1'));
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
    expect(back.data).toEqual({ coins: 4 });
  });

  it('after an erase loads the defaults, not the erased data', async () => {
    const { bed } = counting();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    first.data.coins = 5;
    await bed.clock.run(first.release());
    await bed.clock.run(driver.erase('p1'));
    const third = await bed.clock.run(driver.load('p1'));
    expect(third.data).toEqual({ coins: 0 });
  });

  it('never loads a change the game made to the released profile after its release', async () => {
    const { bed } = counting();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    first.data.coins = 3;
    const data = first.data;
    await bed.clock.run(first.release());
    data.coins = 999; // the old object, changed after the release wrote it
    const again = await bed.clock.run(driver.load('p1'));
    expect(again.data).toEqual({ coins: 3 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 3 });
  });

  it("writes the data it loads: the taken record's JSON is the session's data with its lock, byte for byte", async () => {
    const { bed } = counting();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    first.data.coins = 12;
    Object.assign(first.data, { bag: ['sword', { gems: 3 }], 'odd key "é"': 'x\u2028' });
    await bed.clock.run(first.release());
    const again = await bed.clock.run(driver.load('p1'));
    const json = bed.store.peekJson('PlayerData/p1');
    expect(json).toBe(JSON.stringify({ data: again.data, meta: stored(bed.store, 'p1')?.meta }));
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(again.lockToken);
  });

  it("after a release retried over its own committed release, loads what the store holds, not the retry's data", async () => {
    const bed = testBed();
    const server = bed.server('A');
    const first = await bed.clock.run(server.driver.load('p1'));
    first.data.coins = 1;
    // The release commits with coins 1, but its response is lost: the profile is retained.
    server.store.faults.inject({ kind: 'lose-response', times: 1 });
    await bed.clock.run(first.release().catch(() => undefined));
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1 });
    first.data.coins = 2; // changed after the release that committed
    // The retry finds its own release and writes nothing: the store keeps coins 1.
    await bed.clock.run(first.release());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1 });
    const again = await bed.clock.run(server.driver.load('p1'));
    expect(again.data).toEqual({ coins: 1 });
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 1 });
  });

  it('older than the age limit, reads first', async () => {
    const { bed, since } = counting();
    const driver = bed.driver('A');
    const first = await bed.clock.run(driver.load('p1'));
    await bed.clock.run(first.release());
    await bed.clock.advance(RELEASED_SNAPSHOT_LIMITS.maxAgeMs + 1);
    since();
    await bed.clock.run(driver.load('p1'));
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
  });
});
