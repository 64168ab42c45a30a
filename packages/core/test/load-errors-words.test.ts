/**
 * The words and details of a load's own errors, which a game logs and a support tool reads:
 * a `signal` that is not an AbortSignal (each member checked), an aborted load, a store that
 * did not answer by the join's hard end, a same-server wait that ran out. Exact, on the
 * virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { type DataDriverError, ErrorCode } from '../src/index.js';
import { faultyFleet, testBed } from './helpers.js';

const noop = () => undefined;

describe("a load's errors say what happened", () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'abort'],
    [
      'aborted not a boolean',
      { aborted: 'yes', addEventListener: noop, removeEventListener: noop },
    ],
    ['no addEventListener', { aborted: false, removeEventListener: noop }],
    ['no removeEventListener', { aborted: false, addEventListener: noop }],
  ])(
    'a signal that is not an AbortSignal (%s): Data.InvalidArgument, nothing read',
    async (_name, signal) => {
      const bed = testBed();
      const driver = bed.driver('A');
      const error = await bed.clock.run(
        driver
          .load('p1', { signal: signal as AbortSignal })
          .catch((caught: DataDriverError) => caught),
      );
      expect((error as DataDriverError).message).toBe(
        'Data.InvalidArgument: signal must be an AbortSignal',
      );
      expect(bed.store.calls).toEqual({ reads: 0, compareAndSets: 0 });
    },
  );

  it('an aborted load: Data.Aborted, naming the key', async () => {
    const bed = testBed();
    const error = await bed.clock.run(
      bed
        .driver('A')
        .load('p1', { signal: AbortSignal.abort() })
        .catch((caught: DataDriverError) => caught),
    );
    expect((error as DataDriverError).message).toBe('Data.Aborted: the load of p1 was aborted');
  });

  it("a store that did not answer by the join's hard end: Data.Timeout, with the words and the key", async () => {
    const { clock, server } = faultyFleet();
    const b = server('B');
    b.connection.faults.inject({
      kind: 'stall',
      operation: 'update',
      times: Number.POSITIVE_INFINITY,
    });
    const error = await clock.run(b.driver.load('p1').catch((caught: DataDriverError) => caught));
    expect((error as DataDriverError).message).toBe(
      'Data.Timeout: the store did not answer the load of p1 by 10 s past lockWaitSeconds; a lock it takes later is released',
    );
    expect((error as DataDriverError).details).toStrictEqual({ key: 'p1' });
  });

  it('a same-server wait that ran out: Data.Locked by this server, with what is in progress', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    await bed.clock.run(driver.load('p1'));
    const error = await bed.clock.run(
      driver.load('p1', { handoffSeconds: 2 }).catch((caught: DataDriverError) => caught),
    );
    expect((error as DataDriverError).code).toBe(ErrorCode.Locked);
    expect((error as DataDriverError).message).toBe(
      'Data.Locked: profile is locked by this server (key p1, server A, session in progress)',
    );
    expect((error as DataDriverError).details).toStrictEqual({
      key: 'p1',
      reason: 'local-session',
    });
    expect(bed.events.filter((e) => e.type === 'load.waiting')).toEqual([
      expect.objectContaining({ key: 'p1', reason: 'local-session' }),
    ]);
  });
});
