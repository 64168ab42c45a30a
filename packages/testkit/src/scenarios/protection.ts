/** The protective rows: a live holder keeps its lock, old builds are never taken early. */
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import { expectWait, mark, type Scenario, settled, waitingServer, waitOf } from './scenario.js';
import { expectParks } from './schedule.js';

async function holding(cluster: Cluster, label: string, coins: number, options = {}) {
  const server = await cluster.server(label, options);
  const from = mark(cluster);
  server.join('p1');
  await settled(cluster, label, 'p1', from);
  const profile = server.profile('p1')!;
  profile.data.coins = coins;
  await cluster.time.until(profile.save());
  return server;
}

/** A server's presence writes, as `time` (and `!` for one that failed), for a failure message. */
function beatsOf(cluster: Cluster, label: string): string {
  return cluster.events
    .filter((e) => e.server === label && e.type.startsWith('presence.beat'))
    .map((e) => `${e.time}${e.type === 'presence.beat-failed' ? '!' : ''}`)
    .join(', ');
}

/** A server's presence reads that failed, as `time what: error`, for a failure message. */
function failedReadsOf(cluster: Cluster, label: string): string {
  const failed = cluster.ledger
    .during({ from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY })
    .filter((entry) => entry.kind === 'presence' && entry.server === label && entry.failed);
  return failed.map((entry) => `${entry.from} ${entry.what}: ${entry.failed}`).join('; ') || 'none';
}

/** The rules' default wait (15 s), whatever the presence: these scenarios time its fail-closed end. */
const FAILS_CLOSED = { lockWaitSeconds: 15 } as const;

export const protectionScenarios: Scenario[] = [
  {
    name: '7. a stalling live holder keeps its lock past lockTtl + lockSkew; the join fails closed',
    async run(cluster) {
      const a = await holding(cluster, 'A', 5);
      const b = await cluster.server('B', FAILS_CLOSED);
      a.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        times: Number.POSITIVE_INFINITY,
      });
      await cluster.time.pass(cluster.ms(241)); // A's lock is now stale by age; A still beats
      const before = await cluster.record('p1');
      const from = mark(cluster);
      b.join('p1');
      const failed = await settled(cluster, 'B', 'p1', from);
      expect(failed.type).toBe('load.failed');
      expect(b.host.kicks.map((kick) => kick.message)).toEqual([
        'Your data is still in use on another server. Please rejoin in a moment.',
      ]);
      expect(await cluster.record('p1')).toEqual(before);
      expect(await cluster.holder('p1')).toBe('A');
      const answers = cluster.events.filter((e) => e.server === 'B' && e.type === 'presence.read');
      expect(answers.length).toBeGreaterThan(0);
      // A read still out at the deadline ends there as unknown (`join-deadline.ts`): on real
      // time a slow read of the last attempt but one can straddle it. Every read that answered
      // before the deadline says alive. (1 ms: a real timer may fire within a ms of its due time.)
      const deadline = waitOf(failed).from + cluster.ms(15_000) - 1;
      const notAlive = answers.filter(
        (e) =>
          e.type === 'presence.read' &&
          e.answer !== 'alive' &&
          !(e.answer === 'unknown' && e.time >= deadline),
      );
      expect(
        notAlive.map((e) => e.type === 'presence.read' && `${e.answer} at ${e.time}`),
        `B's presence reads of A before the deadline (${deadline}) say alive; A beat at ${beatsOf(cluster, 'A')}; B's failed reads: ${failedReadsOf(cluster, 'B')}`,
      ).toEqual([]);
      expect(cluster.events.some((e) => e.type === 'lock.taken')).toBe(false);
      // Each attempt: load (100), presence (10), load again with the answer (100).
      expectWait(cluster, waitOf(failed), {
        exactMs: 15_220,
        atMostMs: 15_500,
        atLeastMs: 15_000,
        deadlineMs: 15_000,
      });
      expectParks(cluster, waitingServer(cluster, waitOf(failed)), 15_000);
    },
  },
  {
    name: '8. a holder without presence is never taken early, and is taken by age after a crash',
    async run(cluster) {
      const times = {
        lockTtlSeconds: 20,
        lockSkewSeconds: 5,
        autosaveSeconds: 10,
        ...FAILS_CLOSED,
      };
      const a = await holding(cluster, 'A', 8, { ...times, handoff: false });
      const b = await cluster.server('B', times);
      const lock = (await cluster.record('p1'))?.meta.lock;
      expect(lock?.presence).toBe(false);
      a.crash();
      const first = mark(cluster);
      b.join('p1');
      const failed = await settled(cluster, 'B', 'p1', first);
      expect(failed.type).toBe('load.failed'); // no reply, no presence: waits out lockWaitSeconds
      // The whole lockWaitSeconds: the last attempt starts at the 15 s deadline (100 ms load).
      expectWait(cluster, waitOf(failed), {
        exactMs: 15_100,
        atMostMs: 15_500,
        atLeastMs: 15_000,
        deadlineMs: 15_000,
      });
      expectParks(cluster, waitingServer(cluster, waitOf(failed)), 15_000);
      expect(cluster.events.slice(first).some((e) => e.type === 'presence.read')).toBe(false);
      expect(cluster.find('B', 'handoff.request.sent', 'p1')).toBeDefined();
      const second = mark(cluster);
      b.join('p1'); // the player tries again: the lock turns 25 s old during this wait
      const loaded = await settled(cluster, 'B', 'p1', second);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stale' });
      // Taken by age: only once A's last write is lockTtl + lockSkew (25 s) old.
      expect(loaded.time - lock!.time).toBeGreaterThan(cluster.ms(25));
      expect(b.profile('p1')?.data.coins).toBe(8);
      expect(
        cluster
          .warnings('B')
          .some((line) => line.startsWith(`took the stale lock of p1 from server ${a.jobId}`)),
      ).toBe(true);
    },
  },
  {
    name: '9. one stuck autosave does not block the others',
    async run(cluster) {
      const a = await cluster.server('A');
      const b = await cluster.server('B');
      const from = mark(cluster);
      a.join('stuck');
      a.join('free');
      b.join('other');
      await settled(cluster, 'A', 'stuck', from);
      await settled(cluster, 'A', 'free', from);
      await settled(cluster, 'B', 'other', from);
      a.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        key: `${cluster.driverName}/stuck`,
        times: Number.POSITIVE_INFINITY,
      });
      a.profile('stuck')!.data.coins = 1;
      a.profile('free')!.data.coins = 2;
      b.profile('other')!.data.coins = 3;
      await cluster.time.pass(cluster.ms(35)); // the first autosave period (30 s)
      // A change for the second: an autosave with nothing new to store writes nothing.
      a.profile('free')!.data.coins = 4;
      await cluster.time.pass(cluster.ms(30)); // the second (60 s)
      expect((await cluster.record('stuck'))?.data).toEqual({ coins: 0 });
      expect((await cluster.record('free'))?.data).toEqual({ coins: 4 });
      expect((await cluster.record('other'))?.data).toEqual({ coins: 3 });
      const saves = cluster.events.filter((e) => e.type === 'profile.saved' && e.key === 'free');
      expect(saves).toHaveLength(2);
    },
  },
  {
    name: 'an unknown presence answer does not protect a stale lock',
    async run(cluster) {
      const a = await holding(cluster, 'A', 3);
      const b = await cluster.server('B', {
        prepare: ({ presence }) =>
          presence.faults.inject({
            kind: 'fail',
            operation: 'get',
            times: Number.POSITIVE_INFINITY,
          }),
      });
      a.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        times: Number.POSITIVE_INFINITY,
      });
      await cluster.time.pass(cluster.ms(241));
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stale' });
      expect(cluster.find('B', 'presence.read', 'p1')).toMatchObject({ answer: 'unknown' });
      expect(b.profile('p1')?.data.coins).toBe(3);
    },
  },
];
