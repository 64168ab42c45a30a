/**
 * The cross-server rows when the bus cannot carry a request: A's subscribe failed (B's repeat
 * gets through once A resubscribes), or the handoff is off (B retries the store alone).
 */
import { DEFAULT_TIMINGS } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import {
  expectWait,
  kicksOf,
  mark,
  type Scenario,
  settled,
  waitingServer,
  waitOf,
} from './scenario.js';
import { expectParks } from './schedule.js';

function requestsSent(cluster: Cluster, label: string): number {
  return cluster.events.filter((e) => e.server === label && e.type === 'handoff.request.sent')
    .length;
}

export const busDownScenarios: Scenario[] = [
  {
    name: 'a failed subscribe warns, falls back to polling, and the repeated request gets through',
    async run(cluster) {
      const b = await cluster.server('B');
      const a = await cluster.server('A', {
        prepare: ({ messenger }) =>
          messenger.faults.inject({ kind: 'fail', operation: 'subscribe' }),
      });
      expect(a.handoff?.subscribed).toBe(false);
      expect(cluster.warnings('A')).toEqual([
        `handoff could not subscribe to CKHandoff_${a.jobId}; falling back to polling: Data.BackendFailed: injected failure of subscribe CKHandoff_${a.jobId}`,
      ]);
      // A retries on its next beat; that retry lands only once B's first request is gone, as
      // it would on the virtual clock, however slow the loads before it are on a real backend.
      const retry = a.messenger.faults.inject({ kind: 'stall', operation: 'subscribe' });
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      a.profile('p1')!.data.coins = 6;
      const from = mark(cluster);
      b.join('p1');
      // B reads A's presence after its first park, so its first request's publish has returned.
      await cluster.until(
        () =>
          cluster.events.slice(from).some((e) => e.server === 'B' && e.type === 'presence.read'),
        cluster.ms(2),
        "B's first wake",
      );
      const releasedAt = cluster.time.now();
      retry.release();
      const loaded = await settled(cluster, 'B', 'p1', from);
      // A resubscribed on its next beat; B's request, repeated every 4 s on its own timer, then
      // got through. The order is the rules' on every backend; the count of repeats, real time's.
      expect(a.handoff?.subscribed).toBe(true);
      const after = cluster.events.slice(from);
      const subscribedAt = after.find((e) => e.server === 'A' && e.type === 'handoff.subscribed');
      const sent = after.filter((e) => e.server === 'B' && e.type === 'handoff.request.sent');
      const heard = after.filter((e) => e.server === 'A' && e.type === 'handoff.request.received');
      expect(subscribedAt).toBeDefined();
      expect(heard.length).toBeGreaterThanOrEqual(1);
      // B's first request went out while A's subscribe was held: it was lost, and A heard
      // nothing until B had repeated it, nor before its subscription landed (a repeat published
      // while Google's emulator was still answering A's subscribe can be the one it hears).
      expect(sent[0]!.time).toBeLessThan(releasedAt);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(cluster.events.indexOf(heard[0]!)).toBeGreaterThan(cluster.events.indexOf(sent[1]!));
      // Nor before the held subscribe was let go. On the virtual clock the subscription's event
      // comes first; on a real backend an adapter may take messages for a channel before its
      // subscribe's promise settles (the Redis messenger adds its handler first), so a message
      // in the same read as the answer can be reported a millisecond before the subscription.
      expect(heard[0]!.time).toBeGreaterThanOrEqual(
        cluster.time.exact ? subscribedAt!.time : releasedAt,
      );
      if (cluster.time.exact) {
        // On the virtual clock the first repeat, at 4 s, is the one A hears, and the last.
        expect(requestsSent(cluster, 'B')).toBe(2);
        expect(heard).toHaveLength(1);
      }
      expect(b.profile('p1')?.data.coins).toBe(6);
      // The virtual clock's schedule (the first repeat, at 4 s, is heard), and on a real backend
      // one repeat more: one published while A's subscribe is being made may be lost or late.
      const exactMs = 4_340;
      const repeatMs = DEFAULT_TIMINGS.requestRepeatSeconds * 1000;
      expectWait(cluster, waitOf(loaded), {
        exactMs,
        atMostMs: exactMs + repeatMs,
        atLeastMs: repeatMs,
      });
    },
  },
  {
    name: 'with handoff off, a join retries at 0.5 s doubling to 2 s and fails closed after lockWaitSeconds',
    async run(cluster) {
      const a = await cluster.server('A', { handoff: false });
      const b = await cluster.server('B', { handoff: false, lockWaitSeconds: 15 });
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      a.profile('p1')!.data.coins = 2;
      const before = await cluster.record('p1');
      const from = mark(cluster);
      b.join('p1');
      const failed = await settled(cluster, 'B', 'p1', from);
      expect(failed.type).toBe('load.failed');
      expect(kicksOf(b)).toEqual([
        'Your data is still in use on another server. Please rejoin in a moment.',
      ]);
      expect(kicksOf(a)).toEqual([]);
      expect(await cluster.record('p1')).toEqual(before);
      expect(requestsSent(cluster, 'B')).toBe(0);
      // Attempts at 0, 0.6, 1.7, 3.8 s then every 2.1 s (park + 100 ms load); the last one
      // starts at the 15 s deadline and ends 100 ms later.
      expectWait(cluster, waitOf(failed), {
        exactMs: 15_100,
        atMostMs: 15_500,
        atLeastMs: 15_000,
        deadlineMs: 15_000,
      });
      expectParks(cluster, waitingServer(cluster, waitOf(failed)), 15_000);
    },
  },
];
