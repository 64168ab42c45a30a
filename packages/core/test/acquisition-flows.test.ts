/**
 * A load waiting on another server's lock (`load/acquisition.ts`): it reads the presence only
 * of a holder whose lock carries the presence flag (an unflagged lock, from a server without
 * handoff or of an older build, is freed by age alone), says `load.waiting` once per lock, and
 * past its wait fails with what it last met: `Data.Locked` for a lock, the store's error for a
 * store that kept failing. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { toStoreRecord } from '../src/rules.js';
import { faultyFleet } from './helpers.js';

describe('a load waiting on an unflagged lock', () => {
  it('reads no presence, says load.waiting once, and fails Data.Locked at 15 s', async () => {
    const { clock, store, server } = faultyFleet();
    const b = server('B');
    const holder = { jobId: 'X', token: 'X-1', time: clock.now(), presence: false };
    store.put(
      'PlayerData/p1',
      toStoreRecord({ data: { coins: 1 }, meta: { version: 1, lock: holder } }),
    );
    const started = clock.now();
    const error = await clock.run(b.driver.load('p1').catch((caught: DataDriverError) => caught));
    expect((error as DataDriverError).code).toBe(ErrorCode.Locked);
    expect(clock.now() - started).toBe(15_000);
    expect(b.events.filter((e) => e.type === 'presence.read')).toEqual([]);
    expect(b.events.filter((e) => e.type === 'load.waiting')).toEqual([
      expect.objectContaining({ key: 'p1', reason: 'locked', holder }),
    ]);
  });
});

describe('a load whose every store attempt fails', () => {
  it("fails past its wait with the store's error, not Data.Locked", async () => {
    const { clock, server } = faultyFleet();
    const b = server('B');
    b.connection.faults.inject({
      kind: 'fail',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
    });
    const started = clock.now();
    const error = await clock.run(b.driver.load('p1').catch((caught: DataDriverError) => caught));
    expect((error as DataDriverError).code).toBe(ErrorCode.BackendFailed);
    expect((error as DataDriverError).message).toBe(
      'Data.BackendFailed: injected failure of update PlayerData/p1',
    );
    expect(clock.now() - started).toBe(15_000);
    // Each failed attempt is retried on the park schedule; the last, at 15 s, ends the wait.
    expect(b.events.filter((e) => e.type === 'load.retrying').map((e) => e.time - started)).toEqual(
      [0, 500, 1_500, 3_500, 5_500, 7_500, 9_500, 11_500, 13_500],
    );
  });
});
