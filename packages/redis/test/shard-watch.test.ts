/**
 * The sharded subscription check's own rules, on ports that stand in for Redis (the check on a
 * real Redis Cluster is in test/cluster/failover.test.ts): it checks on its own schedule, renews
 * only the channels whose probe did not come back, learns nothing while it cannot publish, and
 * stops when told.
 */
import { recordingLogger } from '@datadriver/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROBE_TIMEOUT_MS, ShardWatch } from '../src/shard-watch.js';

/** Lets `ms` pass on the fake clock, running what falls due. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** A watch whose probes come back on `delivering` channels only. */
function watchOf(channels: string[], delivering: Set<string>, publishFails = false) {
  const renewals: string[][] = [];
  const logger = recordingLogger();
  const watch: ShardWatch = new ShardWatch({
    channels: () => channels,
    publish: async (channel, payload) => {
      if (publishFails) throw new Error('Connection is closed.');
      if (delivering.has(channel)) setTimeout(() => watch.receive(payload), 1);
    },
    renew: async (lost) => {
      renewals.push([...lost]);
      for (const channel of lost) delivering.add(channel);
    },
    logger,
    intervalMs: 50,
  });
  return { watch, renewals, logger };
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
