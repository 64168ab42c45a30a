/** The cross-server rows: the player arrives on B while A still holds the lock. */
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import type { Span } from '../cluster/ledger.js';
import {
  expectOutcome,
  expectWait,
  kicksOf,
  mark,
  type Scenario,
  settled,
  waitOf,
} from './scenario.js';
import { traceOf } from './wait-report.js';

/** Servers A and B, and player p1 playing on A with `coins` unsaved coins. */
async function playingOnA(cluster: Cluster, coins: number) {
  const a = await cluster.server('A');
  const b = await cluster.server('B');
  const from = mark(cluster);
  a.join('p1');
  await settled(cluster, 'A', 'p1', from);
  a.profile('p1')!.data.coins = coins;
  return { a, b };
}

/**
 * A hand-over that did not wait out a request repeat: A received B's first request before B
 * sent any repeat (on a slow backend the repeat may still go out while A releases).
 */
function expectFirstRequestAnswered(cluster: Cluster, wait: Span): void {
  const index = (predicate: (event: Cluster['events'][number]) => boolean) =>
    cluster.events.findIndex(predicate);
  const received = index((e) => e.server === 'A' && e.type === 'handoff.request.received');
  const sent = cluster.events.filter((e) => e.server === 'B' && e.type === 'handoff.request.sent');
  const trace = cluster.time.exact ? '' : `\n${traceOf(cluster, wait)}`;
  expect(received, `A received no request${trace}`).toBeGreaterThanOrEqual(0);
  if (sent[1] !== undefined) {
    const late = `A received B's first request only after B repeated it${trace}`;
    expect(received, late).toBeLessThan(cluster.events.indexOf(sent[1]));
  }
}

export const crossServerScenarios: Scenario[] = [
  {
    name: '3. a stale connection on another server is handed over in under 1.5 s with its latest data',
    async run(cluster) {
      const { a, b } = await playingOnA(cluster, 11);
      const from = mark(cluster);
      b.join('p1'); // still connected on A
      const loaded = await settled(cluster, 'B', 'p1', from);
      expectOutcome(cluster, loaded, { type: 'load.loaded' });
      expect(b.profile('p1')?.data.coins).toBe(11);
      expect(kicksOf(a)).toEqual(['You joined another server.']);
      expect(await cluster.holder('p1')).toBe('B');
      expect(cluster.find('A', 'handoff.request.received', 'p1')).toMatchObject({ action: 'kick' });
      expect(cluster.find('A', 'handoff.reply.sent', 'p1')).toMatchObject({ requester: b.jobId });
      // On a real bus the reply may land after B's timed retry already loaded; it still lands.
      await cluster.until(
        () => cluster.find('B', 'handoff.reply.received', 'p1') !== undefined,
        cluster.ms(1),
      );
      // B's load (100) + request (20) + A's release save (100) + reply (20) + B's load (100):
      // exact on the virtual clock only if the reply, not the 0.5 s park, woke B. On any
      // backend, the first request is the one A answered: none waited out the 4 s repeat.
      expectFirstRequestAnswered(cluster, waitOf(loaded));
      expectWait(cluster, waitOf(loaded), { exactMs: 340, atMostMs: 1500 });
    },
  },
  {
    name: 'another server whose leave save failed retries the release at once and replies when it lands',
    async run(cluster) {
      const { a, b } = await playingOnA(cluster, 12);
      a.store.faults.inject({ kind: 'fail', operation: 'update' });
      a.leave('p1');
      await cluster.until(
        () => cluster.find('A', 'profile.release-failed', 'p1') !== undefined,
        cluster.ms(5),
      );
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(cluster.find('A', 'handoff.request.received', 'p1')).toMatchObject({
        action: 'retry-release',
      });
      expect(b.profile('p1')?.data.coins).toBe(12);
      // B's load + request + A's retried release + reply + B's load: about one save.
      expectFirstRequestAnswered(cluster, waitOf(loaded));
      expectWait(cluster, waitOf(loaded), { exactMs: 340, atMostMs: 1500 });
    },
  },
  {
    name: '4. a late request must not end a newer session',
    async run(cluster) {
      const { a, b } = await playingOnA(cluster, 5);
      const oldToken = a.profile('p1')!.lockToken;
      // B's first request is held up on the way: lost now, delivered at the end.
      a.messenger.faults.inject({ kind: 'drop', operation: 'deliver' });
      const onB = mark(cluster);
      b.join('p1');
      await cluster.until(
        () => cluster.find('B', 'handoff.request.sent', 'p1') !== undefined,
        cluster.ms(1),
      );
      a.leave('p1'); // the player left A on their own
      await settled(cluster, 'B', 'p1', onB);
      b.leave('p1');
      await cluster.until(
        () => cluster.find('B', 'profile.released', 'p1') !== undefined,
        cluster.ms(1),
      );
      const backOnA = mark(cluster);
      a.join('p1'); // and came back to A: a newer session, a new token
      await settled(cluster, 'A', 'p1', backOnA);
      const newer = a.profile('p1')!;
      expect(newer.lockToken).not.toBe(oldToken);
      // The late request arrives: B's first, byte for byte (the bus delivers it only now).
      const sent = cluster.find('B', 'handoff.request.sent', 'p1')!;
      expect(sent.token).toBe(oldToken);
      const arrives = mark(cluster);
      await cluster.time.until(b.handoff!.request(cluster.driverName, 'p1', a.jobId, oldToken));
      const late = () =>
        cluster.events
          .slice(arrives)
          .find(
            (event) =>
              event.server === 'A' &&
              event.type === 'handoff.request.received' &&
              event.token === oldToken,
          );
      await cluster.until(() => late() !== undefined, cluster.ms(1), 'the late request');
      expect(late()).toMatchObject({ action: 'reply' });
      await cluster.time.pass(cluster.ms(1)); // what the reply could have set off
      expect(newer.active).toBe(true);
      expect(kicksOf(a)).toEqual([]);
      expect(await cluster.holder('p1')).toBe('A');
    },
  },
  {
    name: 'a load still in flight on the holder is answered when it settles',
    async run(cluster) {
      const a = await cluster.server('A');
      const b = await cluster.server('B');
      // A's first load attempt commits but its response is lost: the lock names A's load. Its
      // retry waits until B's request has arrived, so the request finds the load in flight.
      a.store.faults.inject({ kind: 'lose-response', operation: 'update' });
      const retry = a.store.faults.inject({ kind: 'stall', operation: 'update', skip: 1 });
      const onA = mark(cluster);
      a.join('p1');
      await cluster.until(
        async () => (await cluster.record('p1'))?.meta.lock?.jobId === a.jobId,
        cluster.ms(1),
        "A's first load attempt",
      );
      const onB = mark(cluster);
      b.join('p1');
      await cluster.until(
        () => cluster.find('A', 'handoff.request.received', 'p1') !== undefined,
        cluster.ms(2),
        "B's request reaching A",
      );
      expect(cluster.find('A', 'handoff.request.received', 'p1')).toMatchObject({
        action: 'await-load',
      });
      retry.release();
      await settled(cluster, 'A', 'p1', onA);
      const loaded = await settled(cluster, 'B', 'p1', onB);
      // The request named the lock A's load took, so the new session is ended for B.
      expect(loaded.type).toBe('load.loaded');
      expect(kicksOf(a)).toEqual(['You joined another server.']);
      expect(await cluster.holder('p1')).toBe('B');
    },
  },
  {
    name: 'a duplicated request is harmless: one kick, one release',
    async run(cluster) {
      const { a, b } = await playingOnA(cluster, 4);
      a.messenger.faults.inject({ kind: 'duplicate', operation: 'deliver' });
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(loaded.type).toBe('load.loaded');
      expect(kicksOf(a)).toEqual(['You joined another server.']);
      const releases = cluster.events.filter(
        (e) => e.server === 'A' && e.type === 'profile.released',
      );
      expect(releases).toHaveLength(1);
      expect(b.profile('p1')?.data.coins).toBe(4);
    },
  },
];
