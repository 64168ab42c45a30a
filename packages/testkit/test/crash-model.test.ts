/**
 * The cluster's crash model: a crashed server is a killed process. Its ports freeze, and its
 * own timers stop too, so nothing it had under way ends, acts or reports after the crash. (A
 * model that kept its timers running let a crashed server's join end by its own deadline,
 * which the simulator then judged as a live server's wait.)
 */
import { expect, it } from 'vitest';
import { mark, memoryBackend, withCluster } from '../src/cluster/index.js';

it('a server crashed mid-join reports nothing after the crash: its join never ends, no timer of it fires', () =>
  withCluster(memoryBackend(), async (cluster) => {
    const a = await cluster.server('A');
    const b = await cluster.server('B');
    a.join('p1');
    await cluster.until(() => a.profile('p1') !== undefined, 5_000, "A's load");
    // A never hears B's requests, so B's join waits on A's live lock.
    a.messenger.faults.inject({ kind: 'drop', operation: 'deliver', times: Infinity });
    const joined = mark(cluster);
    b.join('p1');
    await cluster.time.pass(3_000);
    expect(
      cluster.events.slice(joined).some((e) => e.server === 'B' && e.type === 'load.waiting'),
    ).toBe(true);
    b.crash();
    const crashed = mark(cluster);
    // Past the join's every bound (15 s, one presence TTL after it, the lock's TTL).
    await cluster.time.pass(120_000);
    expect(cluster.events.slice(crashed).filter((e) => e.server === 'B')).toEqual([]);
    expect(a.profile('p1')?.active).toBe(true);
  }));
