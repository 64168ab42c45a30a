/** The one owner of a driver's server-local state, and the invariants it keeps. */
import fc from 'fast-check';
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

  it("remembers a settled load's token for the close only when its lock may be left: the newest 1,024", () => {
    const registry = new SessionRegistry(() => 0);
    const quiet = reservation('left-t0');
    registry.reserve('p0', quiet);
    registry.settle('p0', quiet);
    expect(registry.takeLeftLocks()).toEqual([]);
    for (let index = 1; index <= 1_024; index += 1) {
      const load = reservation(`left-t${index}`);
      load.mayHaveLeftLock();
      registry.reserve(`p${index}`, load);
      registry.settle(`p${index}`, load);
    }
    // A second load of p2 that asked to be handed the lock at 5 s, then at 9 s: both of p2's
    // tokens are kept, the second with its last ask (a holder may still write it for a while).
    const again = reservation('left-t2-again');
    again.askedForHandOver(5_000);
    again.askedForHandOver(9_000);
    registry.reserve('p2', again);
    registry.settle('p2', again);
    const left = registry.takeLeftLocks();
    expect(left).toHaveLength(1_024);
    // p1's, the oldest, went to make room
    expect(left[0]).toEqual({ key: 'p2', token: 'left-t2', askedAt: undefined });
    expect(left.at(-1)).toEqual({ key: 'p2', token: 'left-t2-again', askedAt: 9_000 });
    expect(registry.takeLeftLocks()).toEqual([]); // given once
  });

  it('does not remember a load that ended holding its key', () => {
    const registry = new SessionRegistry(() => 0);
    const load = reservation('left-held');
    load.mayHaveLeftLock();
    registry.reserve('p1', load);
    // The registry reads a held session's key and token only.
    const session = { key: 'p1', token: 'left-held', lastWritten: { json: '' } };
    registry.hold(session as unknown as ProfileSession);
    registry.settle('p1', load);
    expect(registry.takeLeftLocks()).toEqual([]);
    // Held for p1 only: a lock under the same token on another key is not held here.
    expect(registry.holdsToken('left-held', 'p1')).toBe(true);
    expect(registry.holdsToken('left-held', 'p2')).toBe(false);
    registry.forget(session as unknown as ProfileSession); // its token leaves this process's set
    expect(registry.holdsToken('left-held', 'p1')).toBe(false);
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

  it("a reply that comes before its load parks wakes the park at once, and nobody's request is none", async () => {
    const clock = new VirtualClock();
    const start = clock.now();
    const load = reservation('t1');
    expect(load.takeRequesters()).toEqual([]);
    expect(load.replied(undefined)).toBe(false); // the load's signal, made by this first reply
    expect(await load.reply.wait(clock, 10_000)).toBe(true);
    expect(clock.now()).toBe(start);
    load.requesters.note('B', 't1', undefined, 5);
    expect(load.takeRequesters()).toEqual([['B', { token: 't1', handTo: undefined, at: 5 }]]);
    expect(load.takeRequesters()).toEqual([]);
  });

  it("a load's requesters are full at 16 servers: a 17th is refused, one that asked already is not", () => {
    const load = reservation('t1');
    expect(load.requestersFull('S0')).toBe(false);
    for (let server = 0; server < 16; server += 1)
      load.requesters.note(`S${server}`, 't1', undefined, 0);
    expect(load.requestersFull('S16')).toBe(true);
    expect(load.requestersFull('S3')).toBe(false);
  });

  it('a cancelled load reads as cancelled', () => {
    let wanted = true;
    const load = new LoadReservation('t1', 1, () => wanted);
    expect(load.cancelled()).toBe(false);
    wanted = false;
    expect(load.cancelled()).toBe(true);
  });
  it("answers holdsToken as a map from each token to its key would, across two drivers' registries", () => {
    let made = 0; // tokens are new with every load, as createId makes them
    const step = fc.tuple(
      fc.constantFrom('reserve', 'hold', 'settle', 'forget'),
      fc.integer({ min: 0, max: 1 }),
      fc.constantFrom('p1', 'p2', 'p3'),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 60 }), (steps) => {
        const registries = [new SessionRegistry(() => 0), new SessionRegistry(() => 0)];
        const model = new Map<string, string>(); // the process's tokens, by token
        const tokens: string[] = [];
        const sessions: Array<[SessionRegistry, ProfileSession]> = [];
        for (const [op, which, key] of steps) {
          const registry = registries[which] as SessionRegistry;
          const load = registry.reservation(key);
          const session = registry.session(key);
          if (op === 'reserve' && load === undefined) {
            made += 1;
            const token = `model-${made}`;
            tokens.push(token);
            registry.reserve(key, reservation(token));
            model.set(token, key);
          } else if (op === 'hold' && load !== undefined && session?.token !== load.token) {
            // A load took the lock (a session of the key still here is replaced, as a rejoin's).
            const held = { key, token: load.token, lastWritten: { json: '' } };
            registry.hold(held as unknown as ProfileSession);
            sessions.push([registry, held as unknown as ProfileSession]);
            model.set(load.token, key);
          } else if (op === 'settle' && load !== undefined) {
            registry.settle(key, load);
            if (registry.session(key)?.token !== load.token) model.delete(load.token);
          } else if (op === 'forget' && session !== undefined) {
            registry.forget(session);
            model.delete(session.token);
          }
          for (const token of tokens) {
            for (const asked of ['p1', 'p2', 'p3']) {
              expect(registry.holdsToken(token, asked)).toBe(model.get(token) === asked);
            }
          }
        }
        // Every load settled and every session forgotten (a replaced one too, as its kick's
        // release does): no token is held any more, nor left in the process's for the next run.
        for (const registry of registries) {
          for (const key of ['p1', 'p2', 'p3']) {
            const load = registry.reservation(key);
            if (load) registry.settle(key, load);
          }
        }
        for (const [registry, session] of sessions) registry.forget(session);
        for (const token of tokens) {
          for (const key of ['p1', 'p2', 'p3']) {
            expect(registries[0]?.holdsToken(token, key)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
