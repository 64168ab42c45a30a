/**
 * Every wait of a join is bounded by its own deadline: a publish that acknowledges slowly,
 * stalls or never settles delays neither a reply's wake, nor the park, nor the presence reads;
 * a hung presence read counts as unknown at the deadline (never sooner); a store call is awaited at most one presence TTL past
 * the deadline. `lockWaitSeconds` bounds the cross-server part, counted from the end of the
 * same-server part. Every time here is exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import type { VirtualClock } from '../src/testing.js';
import { faultyFleet, neverHears, stored } from './helpers.js';

/** Servers A and B over one store, bus and presence, each with its own faulty connections. */
function twoServers(options?: { tellsExpiry?: boolean }) {
  const fleet = faultyFleet(options);
  return { ...fleet, a: fleet.server('A'), b: fleet.server('B') };
}

/** Runs `load` to its end: whether it loaded, its error if not, and the virtual time it took. */
async function timed(
  clock: VirtualClock,
  load: Promise<unknown>,
): Promise<{ ok: boolean; error?: unknown; waitedMs: number }> {
  const started = clock.now();
  const outcome = await clock.run(
    load.then(
      () => ({ ok: true }),
      (error: unknown) => ({ ok: false, error }),
    ),
  );
  return { ...outcome, waitedMs: clock.now() - started };
}

describe('a reply that comes at once, with the request publish acknowledged late', () => {
  for (const ackMs of [300, 3_000, 20_000]) {
    it(`wakes the load at the reply's time when the acknowledgement takes ${ackMs} ms`, async () => {
      const { clock, a, b } = twoServers();
      await clock.run(a.driver.load('p1'));
      b.messenger.faults.inject({ kind: 'slow-ack', operation: 'publish', ms: ackMs });
      // A (no host) releases on the request and replies in the same instant: the load takes
      // the lock then, not when B's publish is acknowledged.
      const { ok, waitedMs } = await timed(clock, b.driver.load('p1'));
      expect(ok).toBe(true);
      expect(waitedMs).toBe(0);
      expect(b.events.filter((e) => e.type === 'handoff.reply.received')).toHaveLength(1);
    });
  }
});

describe('a request publish that stalls', () => {
  it('stalled 40 s, with a live holder that never answers: Data.Locked at 15 s, not 40 s', async () => {
    const { clock, a, b } = twoServers();
    await clock.run(a.driver.load('p1'));
    const stall = b.messenger.faults.inject({
      kind: 'stall',
      operation: 'publish',
      times: Number.POSITIVE_INFINITY,
    });
    clock.schedule(40_000, () => stall.remove());
    const { ok, error, waitedMs } = await timed(clock, b.driver.load('p1'));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ code: ErrorCode.Locked });
    expect(waitedMs).toBe(15_000);
    // It read A's presence on the usual schedule meanwhile: A was alive each time.
    const started = clock.now() - waitedMs;
    const reads = b.events.flatMap((e) =>
      e.type === 'presence.read' ? [[e.time - started, e.answer]] : [],
    );
    expect(reads).toEqual(
      [500, 1_500, 3_500, 5_500, 7_500, 9_500, 11_500, 13_500, 15_000].map((at) => [at, 'alive']),
    );
  });

  it('never settling: a crashed holder is taken over exactly when it is over a healthy bus', async () => {
    const takeover = async (hungBus: boolean) => {
      // Reads on the park schedule: a presence that cannot tell when A's key expires (for one
      // that can, crash-read-on-time.test.ts).
      const { clock, log, a, b } = twoServers({ tellsExpiry: false });
      await clock.run(a.driver.load('p1'));
      await clock.run(a.handoff.beat());
      // A dies right after a beat: no more beats, no replies, no writes.
      await a.handoff.destroy();
      a.connection.faults.inject({ kind: 'stall', times: Number.POSITIVE_INFINITY });
      if (hungBus) {
        b.messenger.faults.inject({
          kind: 'stall',
          operation: 'publish',
          times: Number.POSITIVE_INFINITY,
        });
      }
      const started = clock.now();
      const outcome = await timed(clock, b.driver.load('p1'));
      const reads = b.events.flatMap((e) =>
        e.type === 'presence.read' ? [[e.time - started, e.answer]] : [],
      );
      return { ...outcome, reads, warnings: log.warnings() };
    };
    const healthy = await takeover(false);
    const hung = await takeover(true);
    expect(hung.ok).toBe(true);
    expect(hung.warnings).toContain(
      'took the lock of p1 from server A, which stopped beating presence.',
    );
    // The key expires 10 s after the last beat; the wake at 11.5 s reads it gone, 13.5 s too
    // (under a beat later), and the park ends at 14.5 s, a beat after the first empty read,
    // whose read proves the silence; the attempt after it takes the lock.
    expect(hung.waitedMs).toBe(14_500);
    expect(hung.reads).toEqual([
      [500, 'alive'],
      [1_500, 'alive'],
      [3_500, 'alive'],
      [5_500, 'alive'],
      [7_500, 'alive'],
      [9_500, 'alive'],
      [11_500, 'stopped'],
      [13_500, 'stopped'],
      [14_500, 'stopped'],
    ]);
    expect({ waitedMs: hung.waitedMs, reads: hung.reads }).toEqual({
      waitedMs: healthy.waitedMs,
      reads: healthy.reads,
    });
  });
});

describe('a presence read that never answers', () => {
  it('is cut at the deadline, one unknown answer, and the join ends Data.Locked at 15 s', async () => {
    const { clock, a, b } = twoServers();
    await clock.run(a.driver.load('p1'));
    // A never hears the request (its deliveries are dropped), and B's reads hang.
    neverHears(a);
    b.presence.faults.inject({ kind: 'stall', operation: 'get', times: Number.POSITIVE_INFINITY });
    const { ok, error, waitedMs } = await timed(clock, b.driver.load('p1'));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ code: ErrorCode.Locked });
    expect(waitedMs).toBe(15_000);
    const reads = b.events.flatMap((e) =>
      e.type === 'presence.read' ? [[e.time - clock.now() + 15_000, e.answer]] : [],
    );
    // The wake at 0.5 s reads, and the read hangs until the deadline: not cut sooner, since a
    // slow read taken for unknown would not protect a stale lock (next test).
    expect(reads).toEqual([[15_000, 'unknown']]);
  });

  it("keeps a live holder's stale lock: a stale flagged lock whose presence read hangs fails the join closed, and the lock stays", async () => {
    const { clock, store, a, b } = twoServers();
    const held = await clock.run(a.driver.load('p1'));
    const token = stored(store, 'p1')?.meta.lock?.token;
    // A lives and beats, but its writes stall: its lock ages past lockTtl + lockSkew.
    a.connection.faults.inject({
      kind: 'stall',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
    });
    neverHears(a);
    await clock.advance(400_000);
    b.presence.faults.inject({ kind: 'stall', operation: 'get', times: Number.POSITIVE_INFINITY });
    const { ok, error, waitedMs } = await timed(clock, b.driver.load('p1'));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ code: ErrorCode.Locked });
    expect(waitedMs).toBe(15_000);
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(token);
    expect(held.active).toBe(true);
  });
});

describe('a store call that hangs during a join', () => {
  it("is awaited until one presence TTL past the deadline: Data.Timeout at 25 s; the lock it takes when it lands is released, with the holder's data intact", async () => {
    const { clock, store, log, a, b } = twoServers();
    const held = await clock.run(a.driver.load('p1'));
    held.data.coins = 7;
    await clock.run(held.save());
    neverHears(a);
    // B's first attempt finds A's lock; its later ones hang.
    const hang = b.connection.faults.inject({
      kind: 'stall',
      operation: 'update',
      skip: 1,
      times: Number.POSITIVE_INFINITY,
    });
    const { ok, error, waitedMs } = await timed(clock, b.driver.load('p1'));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ code: ErrorCode.Timeout });
    expect(waitedMs).toBe(25_000);
    // A lets go; B's hung attempt lands, takes the free record, and is released at once.
    await clock.run(a.driver.close());
    const released = stored(store, 'p1');
    expect(released?.meta).toMatchObject({ releasedToken: held.lockToken });
    hang.remove();
    await clock.advance(1);
    const record = stored(store, 'p1');
    expect(record?.meta.lock).toBeUndefined();
    // Taken, then released: two writes of B's, under a token of its own.
    expect(record?.meta.version).toBe(released!.meta.version + 2);
    expect(record?.meta.releasedToken).not.toBe(held.lockToken);
    expect(record?.data).toEqual({ coins: 7 });
    expect(b.driver.profile('p1')).toBeUndefined();
    expect(log.lines.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
  });

  it('ends the join at the same bound when its first attempt hangs on a free record, and the late lock is released', async () => {
    const { clock, store, log, a, b } = twoServers();
    const held = await clock.run(a.driver.load('p1'));
    held.data.coins = 7;
    await clock.run(a.driver.close());
    const before = stored(store, 'p1');
    const hang = b.connection.faults.inject({
      kind: 'stall',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
    });
    const { ok, error, waitedMs } = await timed(clock, b.driver.load('p1'));
    expect(ok).toBe(false);
    expect(error).toMatchObject({ code: ErrorCode.Timeout });
    expect(waitedMs).toBe(25_000);
    hang.remove();
    await clock.advance(1);
    const record = stored(store, 'p1');
    expect(record?.meta.lock).toBeUndefined();
    expect(record?.meta.version).toBe(before!.meta.version + 2);
    expect(record?.data).toEqual({ coins: 7 });
    expect(b.driver.profile('p1')).toBeUndefined();
    expect(log.lines.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
  });
});

describe('what lockWaitSeconds bounds', () => {
  it('the cross-server part, counted from the end of the same-server wait: 15 s after it', async () => {
    const { clock, a, b } = twoServers();
    await clock.run(a.driver.load('p1'));
    neverHears(a);
    const first = timed(clock, b.driver.load('p1'));
    // The second load waits here for the first (up to 20 s), then 15 s for A's lock itself.
    const second = timed(clock, b.driver.load('p1', { handoffSeconds: 20 }));
    const [one, two] = await Promise.all([first, second]);
    const locked = { code: ErrorCode.Locked };
    expect(one).toMatchObject({ ok: false, error: locked, waitedMs: 15_000 });
    expect(two).toMatchObject({ ok: false, error: locked, waitedMs: 30_000 });
  });

  it('the same-server wait ends by its own bound (handoffSeconds), whatever lockWaitSeconds is', async () => {
    const { clock, a, b } = twoServers();
    await clock.run(a.driver.load('p1'));
    neverHears(a);
    const first = timed(clock, b.driver.load('p1'));
    const second = timed(clock, b.driver.load('p1', { handoffSeconds: 5 }));
    const [, two] = await Promise.all([first, second]);
    expect(two).toMatchObject({ ok: false, error: { code: ErrorCode.Locked }, waitedMs: 5_000 });
  });
});
