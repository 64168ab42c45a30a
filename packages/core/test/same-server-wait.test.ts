/**
 * The seed's same-server wait: a load waits, event-driven, while its key is still loading on
 * this server or a leaving profile is still saving. Player sessions wait localHandoffSeconds,
 * else lockWaitSeconds (15); a manual load() waits options.handoffSeconds, then
 * localHandoffSeconds, then 0.
 */
import { describe, expect, it } from 'vitest';
import { MemoryHost } from '../src/testing.js';
import { testBed } from './helpers.js';

/** Loads `p1` on a fresh server A whose first store write for it stalls until released. */
async function loadingOnA(options: Parameters<ReturnType<typeof testBed>['server']>[1] = {}) {
  const bed = testBed();
  const a = bed.server('A', options);
  const stall = a.store.faults.inject({ kind: 'stall', operation: 'update', key: 'PlayerData/p1' });
  const first = a.driver.load('p1');
  await bed.clock.advance(0);
  expect(stall.hits).toBe(1);
  return { bed, a, stall, first, started: bed.clock.now() };
}

/**
 * How a promise ends, and when (virtual ms after `from`). It does not drive the clock: the
 * test does, so it can act at chosen times while the promise is pending.
 */
function outcome(bed: ReturnType<typeof testBed>, promise: Promise<unknown>, from: number) {
  const afterMs = () => bed.clock.now() - from;
  return promise.then(
    () => ({ ok: true as const, afterMs: afterMs() }),
    (error: unknown) => ({ ok: false as const, error, afterMs: afterMs() }),
  );
}

describe('a manual load() on a key still loading on this server', () => {
  it('waits 0 by default: Data.Locked at once', async () => {
    const { bed, a, started } = await loadingOnA();
    const second = await bed.clock.run(outcome(bed, a.driver.load('p1'), started));
    expect(second).toMatchObject({ ok: false, afterMs: 0, error: { code: 'Data.Locked' } });
  });

  it('waits options.handoffSeconds, then fails with Data.Locked and the reason', async () => {
    const { bed, a, started } = await loadingOnA();
    const second = await bed.clock.run(
      outcome(bed, a.driver.load('p1', { handoffSeconds: 2 }), started),
    );
    expect(second).toMatchObject({
      ok: false,
      afterMs: 2_000,
      error: {
        code: 'Data.Locked',
        message:
          'Data.Locked: profile is locked by this server (key p1, server A, load in progress)',
      },
    });
  });

  it('waits localHandoffSeconds when the load gives no handoffSeconds', async () => {
    const { bed, a, started } = await loadingOnA({ localHandoffSeconds: 3 });
    const second = await bed.clock.run(outcome(bed, a.driver.load('p1'), started));
    expect(second).toMatchObject({ ok: false, afterMs: 3_000 });
  });

  it('lets options.handoffSeconds override localHandoffSeconds', async () => {
    const { bed, a, started } = await loadingOnA({ localHandoffSeconds: 3 });
    const second = await bed.clock.run(
      outcome(bed, a.driver.load('p1', { handoffSeconds: 1 }), started),
    );
    expect(second).toMatchObject({ ok: false, afterMs: 1_000 });
  });

  it('a second load started in the same tick waits for the first instead of racing it', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const first = a.driver.load('p1');
    const second = outcome(bed, a.driver.load('p1', { handoffSeconds: 10 }), bed.clock.now());
    const profile = await bed.clock.run(first);
    expect(await bed.clock.run(second)).toMatchObject({
      ok: false,
      afterMs: 10_000,
      error: {
        code: 'Data.Locked',
        message:
          'Data.Locked: profile is locked by this server (key p1, server A, session in progress)',
      },
    });
    expect(profile.active).toBe(true);
    expect(
      bed.events.filter((e) => e.type === 'lock.taken' || e.type === 'load.loaded'),
    ).toHaveLength(1);
  });

  it('wakes the moment the profile it waits on is released, and loads what was saved', async () => {
    const bed = testBed();
    const a = bed.server('A');
    const first = a.driver.load('p1');
    const second = outcome(bed, a.driver.load('p1', { handoffSeconds: 10 }), bed.clock.now());
    const profile = await bed.clock.run(first);
    profile.data.coins = 7;
    await bed.clock.advance(3_000);
    await bed.clock.run(profile.release());
    expect(await bed.clock.run(second)).toMatchObject({ ok: true, afterMs: 3_000 });
    expect(a.driver.profile('p1')?.data).toEqual({ coins: 7 });
  });
});

describe("a player's join while the same key's leave save is still running on this server", () => {
  /** p1 plays on A, leaves, and A's leave save stalls; p1 rejoins A at once. */
  async function rejoinDuringStalledLeave(options: { localHandoffSeconds?: number } = {}) {
    const bed = testBed();
    const a = bed.server('A', options);
    const host = new MemoryHost('A');
    a.driver.attach(host);
    host.join('p1');
    await bed.clock.advance(0);
    expect(a.driver.profile('p1')).toBeDefined();
    a.store.faults.inject({ kind: 'stall', operation: 'update', times: Number.POSITIVE_INFINITY });
    host.leave('p1');
    await bed.clock.advance(0);
    const rejoined = bed.clock.now();
    host.join('p1');
    await bed.clock.advance(60_000);
    const kicked = bed.events.find((e) => e.type === 'load.failed' && e.key === 'p1');
    return { host, kicked, waitedMs: kicked ? kicked.time - rejoined : undefined };
  }

  it('waits lockWaitSeconds (15 s) when localHandoffSeconds is unset, then kicks', async () => {
    const { host, waitedMs } = await rejoinDuringStalledLeave();
    expect(waitedMs).toBe(15_000);
    expect(host.kicks).toEqual([
      {
        player: 'p1',
        message: 'Your data is still in use on another server. Please rejoin in a moment.',
      },
    ]);
  });

  it('waits localHandoffSeconds when it is set', async () => {
    const { waitedMs } = await rejoinDuringStalledLeave({ localHandoffSeconds: 4 });
    expect(waitedMs).toBe(4_000);
  });
});
