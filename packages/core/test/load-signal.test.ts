/**
 * `load(key, { signal })`: an aborted load rejects with `Data.Aborted` at the abort, wherever it
 * is, writes nothing further, and never leaves a lock behind. Every time here is exact, on the
 * virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode } from '../src/index.js';
import type { VirtualClock } from '../src/testing.js';
import { faultyFleet, stored, testBed } from './helpers.js';

/** Runs `load` to its end: its error (if it failed) and the virtual time it took. */
async function outcome(clock: VirtualClock, load: Promise<unknown>) {
  const started = clock.now();
  const error = await clock.run(
    load.then(
      () => undefined,
      (failure: unknown) => failure,
    ),
  );
  return { error, tookMs: clock.now() - started };
}

function expectAborted(error: unknown, key: string): void {
  expect(error).toBeInstanceOf(DataDriverError);
  expect((error as DataDriverError).code).toBe(ErrorCode.Aborted);
  expect((error as DataDriverError).details).toEqual({ key });
}

describe('load(key, { signal })', () => {
  it('parked on a live holder elsewhere: Data.Aborted at the abort (1,234 ms), the record byte for byte as it was, no store call of B’s after', async () => {
    const { clock, store, server } = faultyFleet();
    const a = server('A');
    const b = server('B');
    const held = await clock.run(a.driver.load('p1'));
    held.data.coins = 7;
    await clock.run(held.save());
    a.messenger.faults.inject({ kind: 'drop', operation: 'deliver', times: Infinity }); // A never answers
    const before = JSON.stringify(stored(store, 'p1'));
    const controller = new AbortController();
    clock.schedule(1_234, () => controller.abort());
    const load = b.driver.load('p1', { signal: controller.signal });
    const { error, tookMs } = await outcome(clock, load);
    expectAborted(error, 'p1');
    expect(tookMs).toBe(1_234);
    expect(JSON.stringify(stored(store, 'p1'))).toBe(before);
    // Every later call of B's connection would be counted here (A's autosaves go through A's).
    const later = b.connection.faults.inject({ kind: 'fail', times: Infinity });
    await clock.advance(60_000);
    expect(later.hits).toBe(0);
    const failed = b.events.filter((event) => event.type === 'load.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ key: 'p1', waitedMs: 1_234 });
    expect(a.driver.profile('p1')?.active).toBe(true); // the holder was never kicked
  });

  it('a signal aborted before the call: Data.Aborted at once, with no store call at all', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const reason = new Error('the player closed the menu');
    const { error, tookMs } = await outcome(
      bed.clock,
      driver.load('p1', { signal: AbortSignal.abort(reason) }),
    );
    expectAborted(error, 'p1');
    expect((error as DataDriverError).cause).toBe(reason);
    expect(tookMs).toBe(0);
    expect(bed.store.calls).toEqual({ reads: 0, compareAndSets: 0 });
    expect(stored(bed.store, 'p1')).toBeUndefined();
  });

  it('a take already on its way when the signal fires: Data.Aborted at the abort, and the lock it took is given straight back', async () => {
    const bed = testBed();
    const { driver, store } = bed.server('A');
    const take = store.faults.inject({ kind: 'stall', operation: 'update' });
    const controller = new AbortController();
    const load = driver.load('p1', { signal: controller.signal });
    bed.clock.schedule(500, () => controller.abort());
    const { error, tookMs } = await outcome(bed.clock, load);
    expectAborted(error, 'p1');
    expect(tookMs).toBe(500);
    take.release(); // the take lands after the caller heard Data.Aborted
    await bed.clock.advance(1_000);
    const record = stored(bed.store, 'p1');
    expect(record?.meta.lock).toBeUndefined();
    expect(driver.profile('p1')).toBeUndefined();
    expect(bed.events.map((event) => event.type)).toContain('profile.released');
    // Another server loads it at once: nothing was left locked.
    const other = await bed.clock.run(bed.driver('B').load('p1'));
    expect(other.active).toBe(true);
  });

  it('waiting for this server’s own leave save: Data.Aborted at the abort, and the leave save still completes', async () => {
    const bed = testBed();
    const { driver, store } = bed.server('A');
    const profile = await bed.clock.run(driver.load('p1'));
    profile.data.coins = 3;
    store.faults.inject({ kind: 'latency', operation: 'update', ms: 2_000 });
    const leaving = profile.release();
    const controller = new AbortController();
    bed.clock.schedule(300, () => controller.abort());
    const { error, tookMs } = await outcome(
      bed.clock,
      driver.load('p1', { signal: controller.signal, handoffSeconds: 5 }),
    );
    expectAborted(error, 'p1');
    expect(tookMs).toBe(300);
    await bed.clock.run(leaving);
    expect(stored(bed.store, 'p1')?.data).toEqual({ coins: 3 });
    expect(stored(bed.store, 'p1')?.meta.lock).toBeUndefined();
  });

  it('a signal that fires after the load resolved does nothing: the profile stays held', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const controller = new AbortController();
    const profile = await bed.clock.run(driver.load('p1', { signal: controller.signal }));
    controller.abort();
    await bed.clock.advance(1_000);
    expect(profile.active).toBe(true);
    expect(stored(bed.store, 'p1')?.meta.lock?.jobId).toBe('A');
  });

  it('a signal that is not an AbortSignal: Data.InvalidArgument, nothing read or written', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    for (const signal of [{}, 'abort', { aborted: 'yes' }, null]) {
      const { error } = await outcome(
        bed.clock,
        // A JavaScript caller can pass anything.
        driver.load('p1', { signal: signal as unknown as AbortSignal }),
      );
      expect((error as DataDriverError).code).toBe(ErrorCode.InvalidArgument);
    }
    expect(bed.store.calls).toEqual({ reads: 0, compareAndSets: 0 });
  });
});
