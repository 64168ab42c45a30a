/**
 * `expectParks` on a hand-set ledger: the park schedule of a join that failed closed, read off
 * the waiting server's timers. Core's deadline starts somewhere between the load's start (read
 * off its end event) and its first store call, in either order.
 */
import { describe, expect, it } from 'vitest';
import {
  type Cluster,
  criticalPath,
  expectParks,
  TimeLedger,
  type Wait,
} from '../src/cluster/index.js';

const SCALE = 0.07;

/**
 * B's attempts: a first store call of 26 ms, then a timer of each delay and a call of 2 ms
 * after it; the last timer, armed `lastArmLag` ms after the call before it settled (a busy
 * loop), fires at `lastFiresAt`.
 */
async function failedJoin(
  firstCallAt: number,
  delays: number[],
  lastFiresAt: number,
  lastArmLag = 0,
  exact = false,
) {
  const clock = { now: 0 };
  const ledger = new TimeLedger(() => clock.now);
  const call = async (from: number, ms = 2) => {
    clock.now = from;
    await ledger.timed('store', 'B', 'update p1', async () => {
      clock.now = from + ms;
    });
  };
  let at = firstCallAt;
  await call(at, 26);
  at += 26;
  for (const [index, planned] of [
    ...delays,
    lastFiresAt - at - delays.reduce((a, b) => a + b + 2, 0),
  ].entries()) {
    const lag = index === delays.length ? lastArmLag : 0;
    at += lag;
    const delay = planned - lag;
    clock.now = at + delay;
    ledger.fired('B', at, at + delay, `timer of ${delay} ms`);
    at += delay;
    await call(at);
    at += 2;
  }
  const cluster = {
    backend: { scale: SCALE },
    time: { exact },
    events: [],
    ledger,
    pathOf: (wait: Wait) => criticalPath(ledger, wait),
    slackFor: (wait: Wait) => ({ path: criticalPath(ledger, wait) }),
    ms: (seconds: number) => seconds * 1000 * SCALE,
  } as unknown as Cluster;
  return { cluster, end: at };
}

describe('expectParks', () => {
  // A join with lockWaitSeconds 15 at scale 0.07: deadline 1,050 ms after core's start.
  const full = [35, 70, 140, 140, 140, 140, 140, 140];

  it('accepts a last park cut at the deadline when the end event was stamped after the first call (CI trace, Pub/Sub)', async () => {
    // Core started with its first call at -4; the end event, stamped 4 ms late, puts the
    // load's start at 0. The last park ends at -4 + 1,050 = 1,046.
    const { cluster, end } = await failedJoin(-4, full, 1046);
    expect(() => expectParks(cluster, { from: 0, to: end + 4, server: 'B' }, 15_000)).not.toThrow();
  });

  it('accepts a last park due after the deadline by the time the loop took to arm it (CI trace, DynamoDB)', async () => {
    // Core read its clock as the call before the park settled and cut the park to the
    // deadline, 1,050; the loop armed it 3 ms later, so it was due at 1,053.
    const { cluster, end } = await failedJoin(0, full, 1053, 3);
    expect(() => expectParks(cluster, { from: 0, to: end, server: 'B' }, 15_000)).not.toThrow();
  });

  it('allows no arming lag on the virtual clock: a last park due after the deadline fails there', async () => {
    // Scale 0.07 with exact time: each full park is exactly its length, and a park cut to the
    // deadline is due at exactly 1,050, however long the ledger says the arming took.
    const late = await failedJoin(0, full, 1053, 3, true);
    expect(() =>
      expectParks(late.cluster, { from: 0, to: late.end, server: 'B' }, 15_000),
    ).toThrow();
    const onTime = await failedJoin(0, full, 1050, 3, true);
    expect(() =>
      expectParks(onTime.cluster, { from: 0, to: onTime.end, server: 'B' }, 15_000),
    ).not.toThrow();
  });

  it('fails a last park due after the deadline by more than the loop took to arm it', async () => {
    const { cluster, end } = await failedJoin(0, full, 1053, 0);
    expect(() => expectParks(cluster, { from: 0, to: end, server: 'B' }, 15_000)).toThrow();
    const late = await failedJoin(0, full, 1056, 3);
    expect(() =>
      expectParks(late.cluster, { from: 0, to: late.end, server: 'B' }, 15_000),
    ).toThrow();
  });

  it('fails a last park cut short of the deadline', async () => {
    const { cluster, end } = await failedJoin(0, full, 1000);
    expect(() => expectParks(cluster, { from: 0, to: end, server: 'B' }, 15_000)).toThrow();
  });

  it('fails a second park of twice its length', async () => {
    const { cluster, end } = await failedJoin(0, [35, 140, 140, 140, 140, 140, 140, 140], 1050);
    expect(() => expectParks(cluster, { from: 0, to: end, server: 'B' }, 15_000)).toThrow();
  });
});
