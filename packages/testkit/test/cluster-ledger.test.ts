import { describe, expect, it } from 'vitest';
import { describeUnscaled, TimeLedger } from '../src/cluster/index.js';

/** A ledger on a clock the test moves by hand. */
function ledgerAt(start = 1_000) {
  const clock = { now: start };
  return { clock, ledger: new TimeLedger(() => clock.now) };
}

/** An entry's place in the ledger's order of happenings: where it began and ended. */
const order = (startOrder: number, endOrder: number) => ({ startOrder, endOrder });

describe('TimeLedger', () => {
  it('times each call from its start to when it settles, a failed one too', async () => {
    const { clock, ledger } = ledgerAt();
    await ledger.timed('store', 'A', 'update k', async () => {
      clock.now += 12;
    });
    await expect(
      ledger.timed('presence', 'B', 'get A', async () => {
        clock.now += 3;
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(ledger.during({ from: 1_000, to: 1_015 })).toEqual([
      { kind: 'store', server: 'A', from: 1_000, to: 1_012, what: 'update k', ...order(1, 2) },
      {
        kind: 'presence',
        server: 'B',
        from: 1_012,
        to: 1_015,
        what: 'get A',
        ...order(3, 4),
        failed: 'down',
      },
    ]);
  });

  it("keeps a failed call's error code and message", async () => {
    const { ledger } = ledgerAt();
    const throttled = Object.assign(new Error('rate exceeded'), { code: 'Throttling' });
    await expect(
      ledger.timed('presence', 'B', 'get A', async () => Promise.reject(throttled)),
    ).rejects.toBe(throttled);
    await expect(
      ledger.timed('store', 'B', 'get k', async () => Promise.reject('gone')),
    ).rejects.toBe('gone');
    // The AWS SDK names its errors (no `code`); gRPC's codes are numbers.
    const aws = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    const grpc = Object.assign(new Error('unavailable'), { code: 14 });
    for (const error of [aws, grpc]) {
      await expect(
        ledger.timed('presence', 'B', 'get A', () => Promise.reject(error)),
      ).rejects.toBe(error);
    }
    expect(ledger.during({ from: 999, to: 1_000 }).map((entry) => entry.failed)).toEqual([
      'Throttling: rate exceeded',
      'gone',
      'ThrottlingException: slow down',
      '14: unavailable',
    ]);
  });

  it('counts a call still running as running until now', async () => {
    const { clock, ledger } = ledgerAt();
    let settle: () => void = () => undefined;
    const call = ledger.timed(
      'store',
      'B',
      'update k',
      () =>
        new Promise<void>((resolve) => {
          settle = resolve;
        }),
    );
    clock.now = 1_200;
    expect(ledger.unscaledIn({ from: 1_100, to: 1_200 }).byKind.store).toEqual({
      ms: 100,
      count: 1,
    });
    clock.now = 1_300;
    settle();
    await call;
    clock.now = 1_500;
    expect(ledger.unscaledIn({ from: 1_000, to: 1_500 }).totalMs).toBe(300);
  });

  it('counts a message not delivered yet only when asked, as in flight until now', () => {
    const { clock, ledger } = ledgerAt();
    ledger.published('CKHandoff_B', { T: 'R' });
    clock.now = 1_250;
    const span = { from: 1_000, to: 1_250 };
    expect(ledger.unscaledIn(span).totalMs).toBe(0);
    expect(ledger.unscaledIn(span, { inFlight: true }).byKind.message).toEqual({
      ms: 250,
      count: 1,
    });
  });

  it("counts only the part of each entry inside the wait's span", async () => {
    const { clock, ledger } = ledgerAt();
    await ledger.timed('store', 'A', 'get k', async () => {
      clock.now += 40; // 1000 to 1040
    });
    const unscaled = ledger.unscaledIn({ from: 1_030, to: 1_100 });
    expect(unscaled.byKind.store).toEqual({ ms: 10, count: 1 });
    expect(unscaled.totalMs).toBe(10);
    expect(ledger.unscaledIn({ from: 1_040, to: 1_100 }).totalMs).toBe(0);
  });

  it('records every timer firing, unscaled only by how late it fired', () => {
    const { clock, ledger } = ledgerAt();
    ledger.fired('B', 950, 1_000, 'park');
    clock.now = 1_025;
    const armedOrder = ledger.mark();
    ledger.fired('B', 970, 1_020, 'park', armedOrder);
    const park = { kind: 'timer', server: 'B', what: 'park' } as const;
    expect(ledger.during({ from: 0, to: 2_000 })).toEqual([
      { ...park, from: 1_000, to: 1_000, armedAt: 950, endOrder: 1 },
      { ...park, from: 1_020, to: 1_025, armedAt: 970, ...order(2, 3) },
    ]);
    expect(ledger.unscaledIn({ from: 0, to: 2_000 }).totalMs).toBe(5);
  });

  it('leaves out what reaches a silenced (crashed) server', () => {
    const { clock, ledger } = ledgerAt();
    ledger.published('CKHandoff_A', { T: 'Q' }, 'B');
    ledger.silence('A');
    clock.now += 30;
    ledger.delivered('A', 'CKHandoff_A', { T: 'Q' });
    expect(ledger.during({ from: 0, to: 2_000 })).toEqual([]);
  });

  it('times a message from its publish to its delivery, a repeat from the repeat', () => {
    const { clock, ledger } = ledgerAt();
    const request = { T: 'Q', D: 'PlayerData', K: 'p1', R: 'B' };
    ledger.published('CKHandoff_A', request, 'B'); // lost on the bus
    clock.now += 400;
    ledger.published('CKHandoff_A', { ...request }, 'B'); // the repeat, the same body
    clock.now += 2;
    ledger.delivered('A', 'CKHandoff_A', JSON.parse(JSON.stringify(request)));
    ledger.delivered('A', 'CKHandoff_A', { T: 'R', D: 'PlayerData', K: 'p1' }); // never published
    expect(ledger.during({ from: 0, to: 2_000 })).toEqual([
      {
        kind: 'message',
        server: 'A',
        from: 1_400,
        to: 1_402,
        what: 'CKHandoff_A',
        publisher: 'B',
        ...order(2, 3), // from the repeat's publish to its delivery
      },
    ]);
  });

  it('counts two entries at once only once', async () => {
    const { clock, ledger } = ledgerAt();
    const release = ledger.timed('store', 'A', 'update k', async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      clock.now = 1_030; // 1000 to 1030
    });
    await ledger.timed('store', 'B', 'update k', async () => {
      clock.now = 1_010; // 1000 to 1010, beside A's
    });
    await release;
    clock.now = 1_050;
    ledger.fired('B', 1_030, 1_040, 'park'); // 1040 to 1050 late, after both
    const unscaled = ledger.unscaledIn({ from: 1_000, to: 1_100 });
    expect(unscaled.byKind.store).toEqual({ ms: 40, count: 2 });
    expect(unscaled.totalMs).toBe(40);
  });

  it('describes where the time went, kind by kind', async () => {
    const { clock, ledger } = ledgerAt();
    for (const ms of [30, 25, 20.5]) {
      await ledger.timed('store', 'B', 'update k', async () => {
        clock.now += ms;
      });
    }
    ledger.published('CKHandoff_A', { T: 'Q' }, 'B');
    clock.now += 4;
    ledger.delivered('A', 'CKHandoff_A', { T: 'Q' });
    const unscaled = ledger.unscaledIn({ from: 1_000, to: clock.now });
    expect(describeUnscaled(unscaled)).toBe('store 76 ms in 3, message 4 ms in 1');
    expect(describeUnscaled(ledger.unscaledIn({ from: 0, to: 500 }))).toBe('nothing recorded');
  });
});
