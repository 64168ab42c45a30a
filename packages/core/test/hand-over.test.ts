/**
 * A lock handed over in the release (`handOverLocks`, issue 30's hand-over in fewer trips): the
 * joining load's request carries its token, the holder's release writes the joiner's lock
 * instead of none, and its signed reply carries the record it wrote, so the joiner's next
 * attempt takes its own lock with no store call (a read, when the record does not fit a reply).
 * Store calls counted on the memory store as a remote store makes them; exact on the virtual
 * clock.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Migration } from '../src/index.js';
import { ErrorCode } from '../src/index.js';
import type { Scheduler } from '../src/ports.js';
import { handOverFleet } from './hand-over-fleet.js';
import { type Bed, stored, tradeWithHungCommit } from './helpers.js';

/**
 * A, B and C of one fleet; A held p1 (coins 7) and its release, hung past B's aborted load,
 * has just landed: the lock it wrote is B's, whose load has ended.
 */
async function handedToAbortedLoad(made: ReturnType<typeof handOverFleet>) {
  const { bed } = made;
  const { b, c, hang } = await abortedWhileReleaseHangs(made);
  hang.release();
  await bed.clock.run(Promise.resolve());
  return { b, c };
}

/**
 * A, B and C of one fleet; A holds p1 (coins 7) and its release hangs; B's load asked for the
 * hand-over at `asked` and was aborted a second later, so A's release may still hand it the lock.
 */
async function abortedWhileReleaseHangs(made: ReturnType<typeof handOverFleet>) {
  const { bed, stores, server } = made;
  const [a, b, c] = [server('A'), server('B'), server('C')];
  const held = await bed.clock.run(a.load('p1'));
  held.data.coins = 7;
  const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
  const abort = new AbortController();
  const asked = bed.clock.now();
  const aborted = b.load('p1', { signal: abort.signal }).catch((error: unknown) => error);
  await bed.clock.advance(1_000);
  abort.abort();
  expect(await bed.clock.run(aborted)).toMatchObject({ code: ErrorCode.Aborted });
  return { b, c, hang, asked };
}

/** `driver` loads p1 with no wait and holds its lock: nothing was left in its way. */
async function loadsAtOnce<P extends { readonly lockToken: string }>(
  bed: Bed,
  driver: { load(key: string): Promise<P> },
): Promise<P> {
  const started = bed.clock.now();
  const profile = await bed.clock.run(driver.load('p1'));
  expect(bed.clock.now() - started).toBe(0);
  expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  return profile;
}

describe('a lock handed over in the release', () => {
  it('two store calls: B reads the lock, A writes B its lock and replies with that record, B takes it with no call', async () => {
    const { bed, server, of, since } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 7;
    since();
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    expect(bed.clock.now() - started).toBe(0);
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
    expect(held.active).toBe(false);
    // The data A had when it let go, under B's lock, which A stamped as its release landed.
    expect(profile.data).toEqual({ coins: 7 });
    const record = stored(bed.store, 'p1');
    expect(record?.data).toEqual({ coins: 7 });
    expect(record?.meta.lock).toEqual({
      jobId: 'B',
      token: profile.lockToken,
      time: started,
      presence: true,
    });
    expect(record?.meta.releasedToken).toBe(held.lockToken);
    expect(of('load.loaded').at(-1)).toMatchObject({ key: 'p1', reason: 'handed', waitedMs: 0 });
    expect(of('profile.released')).toEqual([expect.objectContaining({ key: 'p1', handedTo: 'B' })]);
    expect(of('lock.taken')).toEqual([]);
    // B's first save is one compare-and-set on the reply's snapshot; the released token goes.
    profile.data.coins = 8;
    await bed.clock.run(profile.save());
    expect(since()).toEqual({ reads: 0, compareAndSets: 1 });
    expect(stored(bed.store, 'p1')?.meta.releasedToken).toBeUndefined();
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  });

  it('without it on both sides the release clears the lock and B writes its own: four store calls', async () => {
    for (const [aOptions, bOptions] of [
      [{}, { handOverLocks: true }],
      [{ handOverLocks: true }, {}],
      [{}, {}],
    ] as const) {
      const { bed, server, of, since } = handOverFleet();
      const a = server('A', aOptions);
      const b = server('B', bOptions);
      const held = await bed.clock.run(a.load('p1'));
      since();
      const profile = await bed.clock.run(b.load('p1'));
      expect(since()).toEqual({ reads: 2, compareAndSets: 2 });
      expect(held.active).toBe(false);
      expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
      expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'unlocked' });
      expect(of('profile.released')).toEqual([expect.objectContaining({ key: 'p1' })]);
      expect(of('profile.released')[0]).not.toHaveProperty('handedTo');
    }
  });

  it('an unsigned fleet hands over as before: a holder honours no unsigned hand-over, and a joiner asks for none', async () => {
    const { bed, server, of, since } = handOverFleet();
    const a = server('A', { handOverLocks: true }, false);
    const b = server('B', { handOverLocks: true }, false);
    const held = await bed.clock.run(a.load('p1'));
    since();
    const profile = await bed.clock.run(b.load('p1'));
    expect(since()).toEqual({ reads: 2, compareAndSets: 2 });
    expect(held.active).toBe(false);
    expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'unlocked' });
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  });

  it("a waiting load's repeated asks keep it the receiver while the release hangs (its last ask, at 8 s, is 1 s old)", async () => {
    const { bed, server, of, stores } = handOverFleet();
    const a = server('A');
    const b = server('B', { handOverLocks: true, lockWaitSeconds: 60 });
    await bed.clock.run(a.load('p1'));
    // A's release write hangs 9 s: B's last ask (at 8 s) is then 1 s old, its first 9 s old.
    const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
    const loading = b.load('p1');
    await bed.clock.advance(9_000);
    hang.release();
    const profile = await bed.clock.run(loading);
    expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'handed' });
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  });

  it('an ask older than two request repeats (8 s) is not handed the lock: the release clears it, and no orphan is left', async () => {
    const { bed, server, of, stores } = handOverFleet();
    const a = server('A');
    const b = server('B', { handOverLocks: true, lockWaitSeconds: 2 });
    await bed.clock.run(a.load('p1'));
    const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
    const started = bed.clock.now();
    await bed.clock.run(b.load('p1').catch(() => undefined));
    // B asked at 0 s and gave up at 2 s; the release lands at 9 s.
    await bed.clock.advanceTo(started + 9_000);
    hang.release();
    await bed.clock.run(Promise.resolve());
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(of('profile.released')[0]).not.toHaveProperty('handedTo');
  });

  it("a hand-over whose response was lost: A's retry finds its own release, and B takes the lock handed to it", async () => {
    const { bed, stores, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 3;
    stores.A!.faults.inject({ kind: 'lose-response', operation: 'update' });
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    // B knows nothing of the lost response: its park on the reply ends, and it reads again.
    expect(bed.clock.now() - started).toBe(500);
    expect(profile.data).toEqual({ coins: 3 });
    expect(of('load.loaded').at(-1)).toMatchObject({ key: 'p1', reason: 'handed', waitedMs: 500 });
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    expect(held.active).toBe(false);
    expect(bed.log.warnings()).toEqual([
      `release of p1 failed; the profile is retained and retried: Data.BackendFailed: injected lost response of update PlayerData/p1`,
    ]);
    // A's retry (its autosave, 30 s on) finds its own release: released, not lost.
    await bed.clock.advance(30_000);
    expect(of('lock.lost')).toEqual([]);
    expect(of('profile.released')).toEqual([expect.objectContaining({ key: 'p1', handedTo: 'B' })]);
    expect(of('profile.released')[0]?.time).toBe(started + 30_000);
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
    expect(bed.log.warnings()).toHaveLength(1);
  });

  it('a lock handed to a load that gave up is cleared by its server when another asks, and that load takes it', async () => {
    const { bed, stores, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B', { handOverLocks: true, lockWaitSeconds: 2 });
    const c = server('C');
    await bed.clock.run(a.load('p1'));
    // A's release write hangs until B's join has given up.
    const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
    const failed = await bed.clock.run(b.load('p1').catch((error: unknown) => error));
    expect(failed).toMatchObject({ code: ErrorCode.Locked });
    hang.release();
    await bed.clock.run(Promise.resolve());
    const orphan = stored(bed.store, 'p1')?.meta.lock;
    expect(orphan).toMatchObject({ jobId: 'B', presence: true });
    // C finds B's lock, asks B, which clears its orphan; C takes the record with no wait.
    await loadsAtOnce(bed, c);
    expect(of('handoff.request.received').at(-1)).toMatchObject({
      requester: 'C',
      token: orphan?.token,
      action: 'reply',
    });
  });

  it("the joiner's own server takes a lock handed to a load there that gave up, as an orphan", async () => {
    const { bed, stores, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B', { handOverLocks: true, lockWaitSeconds: 2 });
    await bed.clock.run(a.load('p1'));
    const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
    await bed.clock.run(b.load('p1').catch(() => undefined));
    hang.release();
    await bed.clock.run(Promise.resolve());
    const profile = await bed.clock.run(b.load('p1'));
    expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'orphaned' });
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  });

  it("a handed lock carries the holder's clock: the joiner times its take by its own (no confirming read when the holder's clock is 10 s behind)", async () => {
    const { bed, server, of, since } = handOverFleet();
    const behind: Scheduler = {
      now: () => bed.clock.now() - 10_000,
      schedule: (delayMs, callback, priority) => bed.clock.schedule(delayMs, callback, priority),
      repeat: (intervalMs, callback, priority) => bed.clock.repeat(intervalMs, callback, priority),
    };
    const a = server('A', { handOverLocks: true, scheduler: behind });
    const b = server('B');
    await bed.clock.run(a.load('p1'));
    since();
    const gets = vi.spyOn(bed.store, 'get');
    const started = bed.clock.now();
    const profile = await bed.clock.run(b.load('p1'));
    expect(stored(bed.store, 'p1')?.meta.lock).toMatchObject({
      token: profile.lockToken,
      time: started - 10_000,
    });
    expect(gets).not.toHaveBeenCalled();
    expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'handed' });
    // Its lock reads 10 s old on B's clock, yet the reply brought it this instant: no read to
    // confirm it.
    expect(since()).toEqual({ reads: 1, compareAndSets: 1 });
  });

  it("a joiner with a newer schema still writes its take: the migration is stored at once, on the reply's snapshot", async () => {
    const { bed, server, of, since } = handOverFleet();
    const a = server('A');
    const migrations: Migration[] = [{ version: 1, migrate: (data) => ({ ...data, gems: 1 }) }];
    const b = server('B', { handOverLocks: true, migrations });
    await bed.clock.run(a.load('p1'));
    since();
    const profile = await bed.clock.run(b.load('p1'));
    expect(since()).toEqual({ reads: 1, compareAndSets: 2 });
    expect(of('load.loaded').at(-1)).toMatchObject({ reason: 'handed' });
    expect(stored(bed.store, 'p1')).toMatchObject({
      data: { coins: 0, gems: 1 },
      meta: { schema: 1, lock: { jobId: 'B', token: profile.lockToken } },
    });
  });

  it('two joiners at once: the lock goes to one, then to the other, one writer at a time, and the data travels', async () => {
    // Both ask A; A hands its lock to one, whose load the other's request then reaches in flight.
    const { bed, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const c = server('C');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 5;
    const loaded: Awaited<ReturnType<typeof b.load>>[] = [];
    const activeAtLoad: boolean[] = [];
    const holders = () => [held, ...loaded].filter((profile) => profile.active);
    const track = (loading: ReturnType<typeof b.load>) =>
      loading.then((profile) => {
        // Whoever loads finds every earlier holder gone: never two active at once.
        expect(holders()).toEqual([]);
        loaded.push(profile);
        activeAtLoad.push(profile.active);
        // A load the other's request reached in flight resolves already released: a game
        // changes only an active profile.
        if (profile.active) profile.data.coins += 1;
        return profile;
      });
    const [fromB, fromC] = await bed.clock.run(
      Promise.all([track(b.load('p1')), track(c.load('p1'))]),
    );
    expect(held.active).toBe(false);
    // The later load asked the first and took the lock it handed over, with its change.
    const [first, last] = loaded;
    expect(activeAtLoad).toEqual([false, true]);
    expect(first!.active).toBe(false);
    expect(last!.active).toBe(true);
    expect(first!.data).toEqual({ coins: 5 });
    expect(last!.data).toEqual({ coins: 6 });
    expect([fromB, fromC]).toContain(last);
    expect(stored(bed.store, 'p1')?.meta.lock?.token).toBe(last!.lockToken);
    expect(
      of('load.loaded')
        .slice(-2)
        .map((event) => event.reason),
    ).toEqual(['handed', 'handed']);
    expect(of('lock.lost')).toEqual([]);
  });

  it('an erase on another server takes the handed lock and deletes the record: no lock is left', async () => {
    const { bed, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const held = await bed.clock.run(a.load('p1'));
    held.data.coins = 5;
    await bed.clock.run(b.erase('p1'));
    expect(held.active).toBe(false);
    expect(of('profile.released')).toEqual([expect.objectContaining({ key: 'p1', handedTo: 'B' })]);
    expect(stored(bed.store, 'p1')).toBeUndefined();
    // A later load anywhere starts from the defaults, with no wait.
    const started = bed.clock.now();
    const fresh = await bed.clock.run(a.load('p1'));
    expect(bed.clock.now() - started).toBe(0);
    expect(fresh.data).toEqual({ coins: 0 });
  });

  it("an aborted joiner's lock, handed to it after the abort, costs the next server no wait", async () => {
    const made = handOverFleet();
    const { bed, of } = made;
    // A's release write hangs past B's abort, then lands: the lock it writes is B's.
    const { c } = await handedToAbortedLoad(made);
    expect(stored(bed.store, 'p1')?.meta.lock).toMatchObject({ jobId: 'B', presence: true });
    expect(of('profile.released').at(-1)).toMatchObject({ key: 'p1', handedTo: 'B' });
    // The player's next server asks B, which clears the lock no load of its own holds.
    await loadsAtOnce(bed, c);
  });

  it('a trade holding the profile: the release waits for its decision, then hands over the traded data', async () => {
    const { bed, stores, server, of } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const { bob, commit, trade } = await tradeWithHungCommit(bed, { driver: a, store: stores.A! });
    const started = bed.clock.now();
    const joining = b.load('alice');
    await bed.clock.advance(1_000);
    // Asked at once, A holds alice's release until the trade is decided: no lock moved yet.
    expect(stored(bed.store, 'alice')?.meta.lock?.jobId).toBe('A');
    expect(of('handoff.request.received').at(-1)).toMatchObject({
      key: 'alice',
      action: 'release',
    });
    commit.release();
    await bed.clock.run(trade);
    const profile = await bed.clock.run(joining);
    expect(bed.clock.now() - started).toBe(1_000);
    expect(of('load.loaded').at(-1)).toMatchObject({ key: 'alice', reason: 'handed' });
    expect(of('profile.released').at(-1)).toMatchObject({ key: 'alice', handedTo: 'B' });
    // The traded data travels, with no marker left: coins conserved across the two servers.
    expect(profile.data.coins).toBe(0);
    expect(bob.data.coins).toBe(10);
    const record = stored(bed.store, 'alice');
    expect(record?.meta.trade).toBeUndefined();
    expect(record?.meta.lock?.token).toBe(profile.lockToken);
    await bed.clock.run(bob.save());
    expect(stored(bed.store, 'bob')?.data.coins).toBe(10);
  });

  it("a joiner's driver that closes clears the lock handed to its ended load: its server beats on", async () => {
    const made = handOverFleet();
    const { bed, of } = made;
    const { b, c } = await handedToAbortedLoad(made);
    const handed = stored(bed.store, 'p1')?.meta.lock;
    expect(handed).toMatchObject({ jobId: 'B', presence: true });
    // B's driver closes; B's handoff stays, beating: nothing on B answers for p1 any more.
    await bed.clock.run(b.close());
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(stored(bed.store, 'p1')?.meta.releasedToken).toBe(handed?.token);
    const waits = of('load.waiting').length;
    const profile = await loadsAtOnce(bed, c);
    expect(of('load.waiting').length).toBe(waits);
    expect(profile.data).toEqual({ coins: 7 }); // the data A let go of, through the clearing
  });

  it("a joiner's driver that closes before the holder's release lands waits out the hand-over window (8 s from its ask), then clears the lock handed to its ended load", async () => {
    const made = handOverFleet();
    const { bed, of } = made;
    const { b, c, hang, asked } = await abortedWhileReleaseHangs(made);
    // B's driver closes while A's release hangs: nothing of B's is in the store yet.
    let closedAt: number | undefined;
    const closing = b.close().then((result) => {
      closedAt = bed.clock.now();
      return result;
    });
    await bed.clock.advance(2_000);
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('A');
    // A's release lands 3 s after B's ask, inside the holder's window: it writes B's lock.
    hang.release();
    await bed.clock.advance(0);
    const handed = stored(bed.store, 'p1')?.meta.lock;
    expect(handed).toMatchObject({ jobId: 'B', presence: true });
    expect(closedAt).toBeUndefined();
    await bed.clock.run(closing);
    expect(closedAt! - asked).toBe(8_000);
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    expect(stored(bed.store, 'p1')?.meta.releasedToken).toBe(handed?.token);
    const waits = of('load.waiting').length;
    const profile = await loadsAtOnce(bed, c);
    expect(of('load.waiting').length).toBe(waits);
    expect(profile.data).toEqual({ coins: 7 });
  });

  it('a close whose deadline comes inside the hand-over window ends at its deadline and writes nothing after it', async () => {
    const made = handOverFleet();
    const { bed } = made;
    const { b, hang, asked } = await abortedWhileReleaseHangs(made);
    await bed.clock.run(b.close({ deadlineSeconds: 3 }));
    expect(bed.clock.now() - asked).toBe(4_000);
    // A's release lands after B's close ended: B's lock stays, for B's presence or its age.
    hang.release();
    await bed.clock.advance(10_000);
    expect(stored(bed.store, 'p1')?.meta.lock).toMatchObject({ jobId: 'B' });
  });

  it('a closing driver leaves alone a lock its ended load was handed once another server took it', async () => {
    const made = handOverFleet();
    const { bed } = made;
    const { b, c } = await handedToAbortedLoad(made);
    // C takes the key first (B, still open, clears the lock handed to its ended load).
    const taken = await bed.clock.run(c.load('p1'));
    taken.data.coins = 9;
    await bed.clock.run(b.close());
    const record = stored(bed.store, 'p1');
    expect(record?.meta.lock?.token).toBe(taken.lockToken);
    await bed.clock.run(taken.save());
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 9 });
    expect(taken.active).toBe(true);
  });

  it('a load still in flight when its driver closes: its lock, handed as it settles, is cleared too', async () => {
    const { bed, stores, server } = handOverFleet();
    const a = server('A');
    const b = server('B');
    const c = server('C');
    await bed.clock.run(a.load('p1'));
    const hang = stores.A!.faults.inject({ kind: 'stall', operation: 'update' });
    const joining = b.load('p1').catch((error: unknown) => error);
    await bed.clock.advance(1_000);
    // A's release lands (B's lock) as B's close begins: B's load is cancelled, not holding.
    hang.release();
    const closing = b.close();
    expect(await bed.clock.run(joining)).toMatchObject({ code: ErrorCode.Closed });
    await bed.clock.run(closing);
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    await loadsAtOnce(bed, c);
  });

  it('a driver that closes clears the lock its failed load wrote before losing the answer', async () => {
    const { bed, stores, server } = handOverFleet();
    const b = server('B', { lockWaitSeconds: 5 });
    const c = server('C', {});
    // B's take lands but its answer is lost; every write after fails, until the load gives up.
    stores.B!.faults.inject({ kind: 'lose-response', operation: 'update' });
    const down = stores.B!.faults.inject({
      kind: 'fail',
      operation: 'update',
      skip: 1,
      times: Infinity,
    });
    const failed = b.load('p1').catch((error: unknown) => error);
    expect(await bed.clock.run(failed)).toMatchObject({ code: ErrorCode.BackendFailed });
    const orphan = stored(bed.store, 'p1')?.meta.lock;
    expect(orphan).toMatchObject({ jobId: 'B' });
    down.remove();
    await bed.clock.run(b.close());
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
    await loadsAtOnce(bed, c);
  });

  it('a close that cannot clear a left lock says so once, naming the key, and leaves the lock', async () => {
    const { bed, stores, server } = handOverFleet();
    const b = server('B', { lockWaitSeconds: 5 });
    stores.B!.faults.inject({ kind: 'lose-response', operation: 'update' });
    stores.B!.faults.inject({ kind: 'fail', operation: 'update', skip: 1, times: Infinity });
    await bed.clock.run(b.load('p1').catch(() => undefined));
    const orphan = stored(bed.store, 'p1')?.meta.lock;
    await bed.clock.run(b.close());
    expect(stored(bed.store, 'p1')?.meta.lock).toEqual(orphan);
    const warned = bed.log
      .warnings()
      .filter((line) => line.startsWith('could not clear the locks'));
    expect(warned).toEqual([
      expect.stringMatching(
        /^could not clear the locks loads of p1 may have left; each lasts until this server's presence expires: /,
      ),
    ]);
  });
});
