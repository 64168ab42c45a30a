/** What the events carry for tracing: a load's id, a save's duration, a kick's cause, retries. */
import { describe, expect, it } from 'vitest';
import { type DataDriverEvent, ErrorCode } from '../src/index.js';
import { MemoryHost } from '../src/testing.js';
import { handoffServers, testBed } from './helpers.js';

type Of<K extends DataDriverEvent['type']> = Extract<DataDriverEvent, { type: K }>;
const of = <K extends DataDriverEvent['type']>(events: DataDriverEvent[], type: K): Of<K>[] =>
  events.filter((event): event is Of<K> => event.type === type);

/** Two servers with handoff on over one bus, on the bed's clock and store. */
function twoServers() {
  const bed = testBed();
  const server = handoffServers(bed);
  return { bed, a: server('A'), b: server('B') };
}

describe('event fields', () => {
  it("numbers a driver's loads, and every event of one load carries its loadId", async () => {
    const { bed, a, b } = twoServers();
    const host = new MemoryHost('A');
    a.driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    await bed.clock.run(a.driver.load('p2'));
    const aStarted = of(bed.events, 'load.started').filter((e) => e.jobId === 'A');
    expect(aStarted.map((e) => [e.key, e.loadId])).toEqual([
      ['p1', 1],
      ['p2', 2],
    ]);
    // B waits on A's lock of p1: its request, A's kick and release, B's take, all load 1 of B.
    await bed.clock.run(b.driver.load('p1'));
    const ofB = bed.events.filter((e) => e.jobId === 'B');
    const loadIds = ofB
      .filter((e) =>
        ['load.started', 'load.waiting', 'handoff.request.sent', 'load.loaded'].includes(e.type),
      )
      .map((e) => [e.type, (e as { loadId: number }).loadId]);
    expect(loadIds).toEqual([
      ['load.started', 1],
      ['load.waiting', 1],
      ['handoff.request.sent', 1],
      ['load.loaded', 1],
    ]);
  });

  it('lock.taken and presence.read carry the loadId of the load that took or read', async () => {
    const { bed, a, b } = twoServers();
    await bed.clock.run(a.driver.load('p1'));
    a.store.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
    a.driver.handoff?.destroy(); // A stops beating: B reads it as stopped and takes the lock
    await bed.clock.run(b.driver.load('p1'));
    const ofB = bed.events.filter((e) => e.jobId === 'B');
    expect(of(ofB, 'presence.read').every((e) => e.loadId === 1)).toBe(true);
    expect(of(ofB, 'presence.read').length).toBeGreaterThan(0);
    expect(of(ofB, 'lock.taken')).toEqual([
      expect.objectContaining({ loadId: 1, reason: 'stolen' }),
    ]);
  });

  it("a kick says why: another server's join is joined-elsewhere", async () => {
    const { bed, a, b } = twoServers();
    const host = new MemoryHost('A');
    a.driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    await bed.clock.run(b.driver.load('p1'));
    expect(of(bed.events, 'profile.kicked')).toEqual([
      expect.objectContaining({ key: 'p1', cause: 'joined-elsewhere' }),
    ]);
  });

  it('a kick after the load waited out the lock is locked', async () => {
    const bed = testBed();
    const a = bed.driver('A');
    await bed.clock.run(a.load('p1'));
    const b = bed.driver('B', { lockWaitSeconds: 1 });
    const host = new MemoryHost('B');
    b.attach(host);
    host.join('p1');
    await bed.clock.advance(2_000);
    expect(of(bed.events, 'profile.kicked')).toEqual([
      expect.objectContaining({ key: 'p1', cause: 'locked' }),
    ]);
  });

  it('profile.saved and profile.save-failed carry the write time', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const profile = await bed.clock.run(a.driver.load('p1'));
    a.store.faults.inject({ kind: 'latency', operation: 'update', ms: 40 });
    await bed.clock.run(profile.save());
    a.store.faults.inject({ kind: 'latency', operation: 'update', ms: 25 });
    a.store.faults.inject({ kind: 'fail', operation: 'update' });
    await bed.clock.run(profile.save().catch(() => undefined));
    expect(of(bed.events, 'profile.saved').map((e) => e.durationMs)).toEqual([40]);
    expect(of(bed.events, 'profile.save-failed').map((e) => e.durationMs)).toEqual([25]);
  });

  it('load.retrying comes before each park of a load on a failing store, with the wait', async () => {
    const bed = testBed();
    const a = bed.server('A');
    a.store.faults.inject({ kind: 'fail', operation: 'update', times: 3 });
    await bed.clock.run(a.driver.load('p1'));
    const retrying = of(bed.events, 'load.retrying');
    expect(retrying.map((e) => [e.attempt, e.nextInMs, e.loadId])).toEqual([
      [1, 500, 1],
      [2, 1000, 1],
      [3, 2000, 1],
    ]);
    expect(retrying.every((e) => e.error.code === ErrorCode.BackendFailed)).toBe(true);
    expect(of(bed.events, 'load.loaded')).toHaveLength(1);
  });
});
