/**
 * The sharded subscription check's own rules, on ports that stand in for Redis (the check on a
 * real Redis Cluster is in test/cluster/failover.test.ts): it checks on its own schedule, renews
 * only the channels whose probe did not come back, backs off while renewing does not help,
 * learns nothing while it cannot publish, and stops when told.
 */
import { recordingLogger } from '@datadriver/testkit/cluster';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RECHECK_MS, PROBE_TIMEOUT_MS, RECHECK_MS, ShardWatch } from '../src/shard-watch.js';

/** Lets `ms` pass on the fake clock, running what falls due. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** A watch whose probes come back on `delivering` channels only. */
function watchOf(
  channels: string[],
  delivering: Set<string>,
  publishFails = false,
  renewHelps = true,
) {
  const renewals: string[][] = [];
  const renewedAt: number[] = [];
  const started = Date.now();
  const logger = recordingLogger();
  const watch: ShardWatch = new ShardWatch({
    channels: () => channels,
    publish: async (channel, payload) => {
      if (publishFails) throw new Error('Connection is closed.');
      if (delivering.has(channel)) setTimeout(() => watch.receive(payload), 1);
    },
    renew: async (lost) => {
      renewals.push([...lost]);
      renewedAt.push(Date.now() - started);
      if (renewHelps) for (const channel of lost) delivering.add(channel);
    },
    logger,
    intervalMs: 50,
  });
  return { watch, renewals, renewedAt, logger };
}

describe('ShardWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every interval without an alarm and renews only the channel that went silent', async () => {
    const { watch, renewals, logger } = watchOf(['a', 'b'], new Set(['a']));
    watch.start();
    await pass(49);
    expect(renewals).toEqual([]); // nothing checked before the interval
    await pass(1 + 1 + PROBE_TIMEOUT_MS);
    expect(renewals).toEqual([['b']]);
    // Renewed, b delivers again: checked again soon, and never renewed again.
    await pass(1_000);
    expect(renewals).toHaveLength(1);
    watch.stop();
    expect(logger.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(/sharded subscription to b stopped delivering/),
    );
  });

  it('renews at doubling waits up to 10 s while renewing does not help, with one info line and one warning', async () => {
    const { watch, renewedAt, logger } = watchOf(['a'], new Set(), false, false);
    watch.start();
    // Alarms while it backs off (a cluster reporting trouble on every command) change nothing.
    const alarms = setInterval(() => watch.alarm(), 100);
    await pass(41_000);
    clearInterval(alarms);
    watch.stop();
    // The first check at the interval; each later one a wait after the renewal before it
    // (250 ms doubled, at most 10 s), then the probe's own 500 ms.
    const expected = [50 + PROBE_TIMEOUT_MS];
    for (let wait = RECHECK_MS; expected.length < 9; wait *= 2) {
      expected.push(expected.at(-1)! + Math.min(wait, MAX_RECHECK_MS) + PROBE_TIMEOUT_MS);
    }
    expect(expected.at(-1)).toBeLessThanOrEqual(41_000);
    expect(renewedAt).toEqual(expected);
    const lines = logger.lines.filter((line) => line.message.includes('sharded subscription'));
    expect(lines.map((line) => line.level)).toEqual(['info', 'warn']);
  });

  it('checks at its interval again once a renewal helps after backing off', async () => {
    const delivering = new Set<string>();
    const { watch, renewedAt, logger } = watchOf(['a'], delivering, false, false);
    watch.start();
    await pass(50 + PROBE_TIMEOUT_MS + RECHECK_MS + PROBE_TIMEOUT_MS); // two renewals
    expect(renewedAt).toHaveLength(2);
    delivering.add('a');
    await pass(10_000);
    delivering.delete('a'); // silent again: a new first renewal, at the interval's pace
    await pass(50 + 1 + PROBE_TIMEOUT_MS);
    watch.stop();
    expect(renewedAt).toHaveLength(3);
    expect(logger.lines.map((line) => line.message)).toContainEqual(
      'sharded subscriptions deliver again',
    );
    const levels = logger.lines
      .filter((line) => line.message.includes('stopped delivering') || line.level === 'warn')
      .map((line) => line.level);
    expect(levels).toEqual(['info', 'warn', 'info']);
  });

  it('answers alarms at once again after a stop and a start that followed a backoff', async () => {
    const { watch, renewedAt } = watchOf(['a'], new Set(), false, false);
    watch.start();
    await pass(50 + PROBE_TIMEOUT_MS + RECHECK_MS + PROBE_TIMEOUT_MS); // backing off
    expect(renewedAt).toHaveLength(2);
    watch.stop();
    watch.start();
    watch.alarm();
    await pass(1 + PROBE_TIMEOUT_MS);
    watch.stop();
    expect(renewedAt).toHaveLength(3);
  });

  it('renews nothing while it cannot publish its probes (the cluster is out of reach)', async () => {
    const { watch, renewals } = watchOf(['a'], new Set(), true);
    watch.start();
    watch.alarm();
    await pass(10 * (50 + PROBE_TIMEOUT_MS));
    watch.stop();
    expect(renewals).toEqual([]);
  });

  it('treats any probe as no message, and checks no more once stopped', async () => {
    const { watch, renewals } = watchOf(['a'], new Set());
    expect(watch.receive('dd-probe:someone-else:1')).toBe(true);
    expect(watch.receive('{"T":"R"}')).toBe(false);
    watch.start();
    watch.stop();
    await pass(10 * (50 + PROBE_TIMEOUT_MS));
    expect(renewals).toEqual([]);
  });
});
