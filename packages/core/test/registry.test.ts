/** The one owner of a driver's server-local state, and the invariants it keeps. */
import { describe, expect, it } from 'vitest';
import { SessionRegistry } from '../src/registry/registry.js';
import { LoadReservation } from '../src/registry/reservation.js';
import type { ProfileSession } from '../src/session/profile-session.js';
import { VirtualClock } from '../src/testing.js';

const reservation = (token: string) => new LoadReservation(token, 1, () => true);

describe('SessionRegistry', () => {
  it('keeps one reservation per key: a second one is refused until the first settles', () => {
    const registry = new SessionRegistry(() => 0);
    const first = reservation('t1');
    registry.reserve('p1', first);
    expect(() => registry.reserve('p1', reservation('t2'))).toThrow(
      'p1 is already reserved by a load',
    );
    expect(registry.reservation('p1')).toBe(first);
    registry.reserve('p2', reservation('t3'));
    expect(registry.count).toBe(2);
    registry.settle('p1', first);
    expect(registry.reservation('p1')).toBeUndefined();
    registry.reserve('p1', reservation('t4'));
    expect(registry.reservation('p1')?.token).toBe('t4');
  });

  it("remembers a settled load's token for the close only when its lock may be left, the last 1,024 keys", () => {
    const registry = new SessionRegistry(() => 0);
    const quiet = reservation('t0');
    registry.reserve('p0', quiet);
    registry.settle('p0', quiet);
    expect(registry.takeLeftLocks()).toEqual([]);
    for (let index = 1; index <= 1_025; index += 1) {
      const load = reservation(`t${index}`);
      load.mayHaveLeftLock();
      registry.reserve(`p${index}`, load);
      registry.settle(`p${index}`, load);
    }
    // A later load of a key replaces its token, and moves it to the newest.
    const again = reservation('t1-again');
    again.mayHaveLeftLock();
    registry.reserve('p2', again);
    registry.settle('p2', again);
    const left = registry.takeLeftLocks();
    expect(left).toHaveLength(1_024);
    expect(left[0]).toEqual(['p3', 't3']); // p1, the oldest, went to make room
    expect(left.at(-1)).toEqual(['p2', 't1-again']);
    expect(registry.takeLeftLocks()).toEqual([]); // given once
  });

  it('forgets the left lock of a key whose next load here holds it', () => {
    const registry = new SessionRegistry(() => 0);
    const failed = reservation('t1');
    failed.mayHaveLeftLock();
    registry.reserve('p1', failed);
    registry.settle('p1', failed);
    const next = reservation('t2');
    registry.reserve('p1', next);
    // The registry reads a held session's key and token only.
    registry.hold({ key: 'p1', token: 't2' } as unknown as ProfileSession);
    registry.settle('p1', next);
    expect(registry.takeLeftLocks()).toEqual([]);
  });

  it('a settle of an older reservation leaves the newer one in place', () => {
    const registry = new SessionRegistry(() => 0);
    const old = reservation('t1');
    registry.reserve('p1', old);
    registry.settle('p1', old);
    const newer = reservation('t2');
    registry.reserve('p1', newer);
    registry.settle('p1', old);
    expect(registry.reservation('p1')).toBe(newer);
  });

  it('wakes same-server waits on each change, and every load on close', async () => {
    const clock = new VirtualClock();
    const registry = new SessionRegistry(() => 0);
    const waiting = registry.waitForChange(clock, 10_000);
    registry.changed();
    expect(await waiting).toBe(true);
    const load = reservation('t1');
    registry.reserve('p1', load);
    const parked = load.reply.wait(clock, 10_000);
    registry.close();
    expect(await parked).toBe(true);
    expect(registry.closed).toBe(true);
  });

  it('a cancelled load reads as cancelled', () => {
    let wanted = true;
    const load = new LoadReservation('t1', 1, () => wanted);
    expect(load.cancelled()).toBe(false);
    wanted = false;
    expect(load.cancelled()).toBe(true);
  });
});
