/**
 * A store attempt that outlasts its join's hard end (lockWaitSeconds + one presence TTL, 25 s)
 * may still land. The lock it leaves under the timed-out load's token is released at once
 * (`load/late-lock.ts`): after a take, and after an attempt whose write landed but whose
 * response was lost. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import { faultyFleet, stored } from './helpers.js';

async function lateAttempt(
  faults: (b: ReturnType<ReturnType<typeof faultyFleet>['server']>) => void,
) {
  const fleet = faultyFleet();
  const { clock, store } = fleet;
  const b = fleet.server('B');
  await clock.run(
    fleet
      .server('A')
      .driver.load('p1')
      .then((profile) => profile.release()),
  );
  const before = stored(store, 'p1');
  faults(b);
  const started = clock.now();
  const error = await clock.run(b.driver.load('p1').catch((caught: unknown) => caught));
  return { ...fleet, b, before, error, waitedMs: clock.now() - started };
}

describe('a store attempt that lands after its join timed out', () => {
  it('whose response was lost: the lock it left is released at once, with the data untouched', async () => {
    const { clock, store, log, before, error, waitedMs } = await lateAttempt((b) => {
      // B's take lands at 30 s, past the hard end, and its response is lost.
      b.connection.faults.inject({ kind: 'latency', operation: 'update', ms: 30_000 });
      b.connection.faults.inject({ kind: 'lose-response', operation: 'update' });
    });
    expect(error).toMatchObject({ code: ErrorCode.Timeout });
    expect(waitedMs).toBe(25_000);
    await clock.advance(5_000);
    const record = stored(store, 'p1');
    // Taken (the write whose response was lost), then released.
    expect(record?.meta.version).toBe(before!.meta.version + 2);
    expect(record?.meta.lock).toBeUndefined();
    expect(record?.meta.releasedToken).not.toBe(before?.meta.releasedToken);
    expect(record?.data).toEqual(before?.data);
    expect(log.warnings()).toEqual([]);
  });

  it('whose release then fails: warned, and the lock is left for a later load to find orphaned', async () => {
    let stall: { release(): void } | undefined;
    const { clock, store, log, b, before, error } = await lateAttempt((b) => {
      stall = b.connection.faults.inject({ kind: 'stall', operation: 'update' });
    });
    expect(error).toMatchObject({ code: ErrorCode.Timeout });
    b.connection.faults.inject({ kind: 'fail', operation: 'update' });
    // The stalled take runs and lands now; the release that follows fails.
    stall?.release();
    await clock.advance(1);
    const record = stored(store, 'p1');
    expect(record?.meta.version).toBe(before!.meta.version + 1);
    expect(record?.meta.lock?.jobId).toBe('B');
    expect(b.driver.profile('p1')).toBeUndefined();
    expect(log.warnings()).toEqual([
      'could not release the lock of p1 a timed-out load took late: Data.BackendFailed: injected failure of update PlayerData/p1',
    ]);
  });

  it('that failed while another server took the lock meanwhile: that lock is left as it is', async () => {
    const { clock, store, server, b, error } = await lateAttempt((b) => {
      // B's attempt fails at 30 s without writing.
      b.connection.faults.inject({ kind: 'latency', operation: 'update', ms: 30_000 });
      b.connection.faults.inject({ kind: 'fail', operation: 'update' });
    });
    expect(error).toMatchObject({ code: ErrorCode.Timeout });
    const c = server('C');
    const held = await clock.run(c.driver.load('p1'));
    const json = JSON.stringify(store.peek('PlayerData/p1'));
    await clock.advance(5_000);
    expect(JSON.stringify(store.peek('PlayerData/p1'))).toBe(json);
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(held.lockToken);
    expect(b.driver.profile('p1')).toBeUndefined();
  });

  it('whose lock was left: the next load asks that server, which clears its orphaned lock and replies', async () => {
    let stall: { release(): void } | undefined;
    const { clock, store, log, server, b, before } = await lateAttempt((b) => {
      stall = b.connection.faults.inject({ kind: 'stall', operation: 'update' });
    });
    b.connection.faults.inject({ kind: 'fail', operation: 'update', times: 2 });
    stall?.release();
    await clock.advance(1);
    expect(stored(store, 'p1')?.meta.lock?.jobId).toBe('B');
    // C's load finds B's lock and asks B: B holds no session under that token, so its first
    // answer tries to clear it (the second injected failure: warned), and its answer to the
    // repeated request clears it and replies.
    const c = server('C');
    const started = clock.now();
    const profile = await clock.run(c.driver.load('p1'));
    // The first answer's reply wakes C to find the lock still there; its request repeated at
    // 4 s is answered with the lock cleared.
    expect(clock.now() - started).toBe(4_000);
    expect(profile.data).toEqual(before?.data);
    expect(log.warnings()).toEqual([
      'could not release the lock of p1 a timed-out load took late: Data.BackendFailed: injected failure of update PlayerData/p1',
      'could not clear an orphaned lock of p1: Data.BackendFailed: injected failure of update PlayerData/p1',
    ]);
    // C took a record B had released, never B's lock itself.
    expect(c.events.filter((event) => event.type === 'lock.taken')).toEqual([]);
    expect(stored(store, 'p1')?.meta.lock?.token).toBe(profile.lockToken);
  });
});
