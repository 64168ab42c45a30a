/**
 * A load that ran slow after its take confirms the lock before the game sees the profile
 * (`load/slow-take.ts`): within one beat (3 s) of the lock time it wrote, no read; past it, one
 * read of the record, and the load goes on only while the lock is still its own. Here the
 * load's inbox read (its message pass after the take) stalls for a chosen time. Exact, on the
 * virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode, type Profile } from '../src/index.js';
import { stored } from './helpers.js';
import { messagesBed } from './messages/bed.js';

type Outcome =
  | { ok: true; profile: Profile<{ coins: number }> }
  | { ok: false; error: DataDriverError };

/** A's load of p1, whose inbox read stalls until `read.release()`; reads of p1's record counted. */
function stalledLoadOnA(m: ReturnType<typeof messagesBed>) {
  const a = m.server('A');
  const read = a.store.faults.inject({
    kind: 'stall',
    operation: 'get',
    key: 'PlayerData#inbox/p1',
  });
  // A latency fault of 0 ms changes nothing and counts every read of p1's record.
  const profileReads = a.store.faults.inject({
    kind: 'latency',
    operation: 'get',
    key: 'PlayerData/p1',
    ms: 0,
    times: Number.POSITIVE_INFINITY,
  });
  let outcome: Outcome | undefined;
  void a.driver.load('p1').then(
    (profile) => (outcome = { ok: true, profile }),
    (error: DataDriverError) => (outcome = { ok: false, error }),
  );
  return { a, read, profileReads, outcome: () => outcome };
}

/** The error a load failed with (and that it failed). */
function failureOf(outcome: Outcome | undefined): DataDriverError {
  expect(outcome?.ok).toBe(false);
  return (outcome as { error: DataDriverError }).error;
}

describe('a load that ran slow after its take', () => {
  it('resolves with no confirming read when it resumes exactly one beat after its lock time', async () => {
    const m = messagesBed();
    const { a, read, profileReads, outcome } = stalledLoadOnA(m);
    await m.bed.clock.advance(3_000);
    read.release();
    await m.bed.clock.advance(0);
    expect(outcome()).toMatchObject({ ok: true });
    expect(profileReads.hits).toBe(0);
    expect(a.driver.profile('p1')?.active).toBe(true);
  });

  it('one millisecond later reads the record once, finds its own lock and resolves', async () => {
    const m = messagesBed();
    const { a, read, profileReads, outcome } = stalledLoadOnA(m);
    await m.bed.clock.advance(3_001);
    read.release();
    await m.bed.clock.advance(0);
    expect(outcome()).toMatchObject({ ok: true });
    expect(profileReads.hits).toBe(1);
    const profile = a.driver.profile('p1');
    expect(stored(m.bed.store, 'p1')?.meta.lock).toMatchObject({
      jobId: 'A',
      token: profile?.lockToken,
    });
  });

  it('fails with Data.LockLost naming the server that holds the lock now', async () => {
    const m = messagesBed();
    const { clock } = m.bed;
    const { a, read, outcome } = stalledLoadOnA(m);
    // Past lockTtlSeconds and the skew, B takes A's lock by age (as in pass-at-load-lost).
    await clock.advance(240_000);
    const b = m.bed.server('B');
    const held = await clock.run(b.driver.load('p1'));
    read.release();
    await clock.advance(0);
    const error = failureOf(outcome());
    expect(error.code).toBe(ErrorCode.LockLost);
    expect(error.message).toBe(
      'Data.LockLost: the lock of p1 was taken by server B; the profile is deactivated',
    );
    expect(error.details).toStrictEqual({
      key: 'p1',
      holder: stored(m.bed.store, 'p1')?.meta.lock,
    });
    expect(stored(m.bed.store, 'p1')?.meta.lock?.token).toBe(held.lockToken);
    expect(a.driver.profile('p1')).toBeUndefined();
  });

  it('fails with Data.LockLost naming no holder when the record was released meanwhile', async () => {
    const m = messagesBed();
    const { clock } = m.bed;
    const { a, read, outcome } = stalledLoadOnA(m);
    await clock.advance(240_000);
    const b = m.bed.server('B');
    const held = await clock.run(b.driver.load('p1'));
    await clock.run(held.release());
    const released = JSON.stringify(m.bed.store.peek('PlayerData/p1'));
    read.release();
    await clock.advance(0);
    const error = failureOf(outcome());
    expect(error.code).toBe(ErrorCode.LockLost);
    expect(error.message).toBe(
      'Data.LockLost: the lock of p1 was taken; the profile is deactivated',
    );
    expect(error.details).toStrictEqual({ key: 'p1', holder: undefined });
    // The failed load wrote nothing over the released record.
    expect(JSON.stringify(m.bed.store.peek('PlayerData/p1'))).toBe(released);
    expect(a.driver.profile('p1')).toBeUndefined();
  });

  it('fails with Data.LockLost naming no holder when the record was erased meanwhile', async () => {
    const m = messagesBed();
    const { clock } = m.bed;
    const { a, read, outcome } = stalledLoadOnA(m);
    await clock.advance(240_000);
    const b = m.bed.server('B');
    await clock.run(b.driver.erase('p1'));
    expect(m.bed.store.peek('PlayerData/p1')).toBeUndefined();
    read.release();
    await clock.advance(0);
    const error = failureOf(outcome());
    expect(error.message).toBe(
      'Data.LockLost: the lock of p1 was taken; the profile is deactivated',
    );
    expect(m.bed.store.peek('PlayerData/p1')).toBeUndefined();
    expect(a.driver.profile('p1')).toBeUndefined();
  });

  it('goes on when its confirming read fails, and warns: the first write finds out', async () => {
    const m = messagesBed();
    const { a, read, outcome } = stalledLoadOnA(m);
    a.store.faults.inject({ kind: 'fail', operation: 'get', key: 'PlayerData/p1' });
    await m.bed.clock.advance(3_001);
    read.release();
    await m.bed.clock.advance(0);
    expect(outcome()).toMatchObject({ ok: true });
    expect(m.bed.log.warnings()).toContainEqual(
      expect.stringMatching(/^could not confirm the lock of p1 after a slow load: /),
    );
  });
});

describe('a profile no longer active', () => {
  it('refuses a save with Data.Inactive, naming the key', async () => {
    const m = messagesBed();
    const a = m.server('A');
    const profile = await m.bed.clock.run(a.driver.load('p1'));
    await m.bed.clock.run(profile.release());
    const error = await m.bed.clock.run(profile.save().catch((caught: DataDriverError) => caught));
    expect(error).toMatchObject({ code: ErrorCode.Inactive });
    expect((error as DataDriverError).message).toBe(
      'Data.Inactive: the profile of p1 is not active',
    );
    expect((error as DataDriverError).details).toStrictEqual({ key: 'p1' });
  });
});
