/** The crash rows: presence expiry, two empty reads a beat apart, then stealFrom. */
import { Handoff } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import type { Span } from '../cluster/ledger.js';
import type { TestServer } from '../cluster/server.js';
import { expectOutcome, expectWait, mark, type Scenario, settled } from './scenario.js';
import { expectStoppedReads } from './schedule.js';

/**
 * The joining server waits up to 40 s: what these cases bound is the takeover (under 16 s, plus
 * the slack the wait itself measured), so on a loaded machine that bound decides, with its
 * figures, rather than the join's own deadline cutting the wait off first.
 */
const JOINER = { lockWaitSeconds: 40 } as const;

/**
 * The presence TTL a takeover by `reader` (whose load started at event `from`) sat out: from
 * the last beat's return (at `crashedAt`), or for a presence whose readers count it from their
 * own first read, from the reader's first read. One timer, however fast the calls in it; it
 * ends when the holder's presence has surely expired.
 */
export function crashTtl(
  cluster: Cluster,
  reader: TestServer,
  from: number,
  crashedAt: number,
): Span {
  const ttl = cluster.ms(Handoff.PRESENCE_TTL_SECONDS);
  if (reader.presence.expiryCountedFrom !== 'first-read') {
    return { from: crashedAt, to: crashedAt + ttl };
  }
  const first = cluster.events
    .slice(from)
    .find((e) => e.server === reader.label && e.type === 'presence.read');
  if (!first) throw new Error(`${reader.label} never read the holder's presence`);
  return { from: first.time, to: first.time + ttl };
}

/**
 * Beats once more and crashes at once: the crash falls right after a beat (the worst case).
 * Returns when that beat was sent: presence can expire no sooner than a TTL after that (it may
 * before a TTL after the beat returned, by the write's round trip on a busy real backend).
 * A beat that found the periodic one still in flight only waited for it, and one that failed
 * wrote nothing: the key then expires a TTL after an earlier write, so the beat is sent again
 * until one of them is a write of its own.
 */
async function crashAfterBeat(cluster: Cluster, server: TestServer): Promise<number> {
  for (;;) {
    const beatSent = cluster.time.now();
    const from = cluster.events.length;
    await cluster.time.until(server.handoff!.beat());
    const ownWrite = !cluster.events
      .slice(from)
      .some((e) => e.server === server.label && e.type === 'presence.beat-failed');
    if (ownWrite) {
      server.crash();
      return beatSent;
    }
  }
}

export const crashScenarios: Scenario[] = [
  {
    name: '5. a crash is taken over in under 16 s, and not before presence expiry plus one beat',
    async run(cluster) {
      const a = await cluster.server('A');
      const b = await cluster.server('B', JOINER);
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      const profile = a.profile('p1')!;
      profile.data.coins = 5;
      await cluster.time.until(profile.save());
      profile.data.coins = 9; // progress after the last save dies with the crash
      const beatSent = await crashAfterBeat(cluster, a);
      const crashedAt = cluster.time.now();
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expectOutcome(cluster, loaded, { type: 'load.loaded', reason: 'stolen' });
      const takenAt = loaded.time;
      expect(b.profile('p1')?.data.coins).toBe(5);
      expect(await cluster.holder('p1')).toBe('B');
      expect(cluster.warnings('B')).toContain(
        `took the lock of p1 from server ${a.jobId}, which stopped beating presence.`,
      );
      const reads = cluster.events.filter((e) => e.server === 'B' && e.type === 'presence.read');
      expect(reads.slice(-2).map((e) => (e.type === 'presence.read' ? e.answer : ''))).toEqual([
        'stopped',
        'stopped',
      ]);
      // Presence expires 10 s after the last beat is written (10 ms after it was sent). B's read
      // before that is told how long the key has left (`getEntry`), so its next read comes as
      // the key expires (about 10.06 s, with the reads' and the margin's milliseconds), not at its
      // next wake (10.2 s on the park schedule, 13.28 s in all); the second comes exactly one
      // beat later, then one load takes the lock. Never sooner than that TTL plus one beat after
      // the beat was sent; never later than 16 s after the crash, when the beat had surely
      // landed (from when it was sent, a slow beat write on a busy machine would move the
      // expiry past a wake).
      expectWait(cluster, { from: beatSent, to: takenAt }, { exactMs: 13_140, atLeastMs: 13_000 });
      // The TTL is one timer, however fast the loads during it: none of it is slack.
      const ttl = crashTtl(cluster, b, from, crashedAt);
      expectWait(
        cluster,
        { from: crashedAt, to: takenAt },
        { exactMs: 13_130, atMostMs: 16_000, fixed: ttl },
      );
      expectStoppedReads(cluster, 'B', ttl.to);
    },
  },
  {
    name: '6. a crash mid-trade is taken over in under 16 s with the trade aborted',
    async run(cluster) {
      const a = await cluster.server('A');
      const b = await cluster.server('B', JOINER);
      const onA = mark(cluster);
      a.join('alice');
      a.join('bob');
      await settled(cluster, 'A', 'alice', onA);
      await settled(cluster, 'A', 'bob', onA);
      const alice = a.profile('alice')!;
      const bob = a.profile('bob')!;
      alice.data.coins = 10;
      await cluster.time.until(alice.save());
      // A dies at the commit: the journal says prepared, both markers are written.
      const commit = a.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        matches: (key) => key.includes('#trade/'),
        skip: 1,
      });
      void a.driver
        .trade(alice, bob, (x, y) => {
          x.coins -= 10;
          y.coins += 10;
        })
        .catch(() => undefined);
      await cluster.until(() => commit.hits === 1, cluster.ms(5), 'the commit write');
      expect((await cluster.record('alice'))?.meta.trade).toBeDefined();
      expect((await cluster.record('bob'))?.meta.trade).toBeDefined();
      const beatSent = await crashAfterBeat(cluster, a);
      const crashedAt = cluster.time.now();
      const from = mark(cluster);
      b.join('alice');
      const loaded = await settled(cluster, 'B', 'alice', from);
      expectOutcome(cluster, loaded, { type: 'load.loaded', reason: 'stolen' });
      expect(cluster.find('B', 'trade.recovered', 'alice')).toMatchObject({ outcome: 'aborted' });
      expect(b.profile('alice')?.data.coins).toBe(10);
      expect((await cluster.record('alice'))?.meta.trade).toBeUndefined();
      // As in case 5, plus the recovery: the journal's abort and a second load write (200 ms).
      expectWait(
        cluster,
        { from: beatSent, to: loaded.time },
        { exactMs: 13_340, atLeastMs: 13_000 },
      );
      const ttl = crashTtl(cluster, b, from, crashedAt);
      expectWait(
        cluster,
        { from: crashedAt, to: loaded.time },
        { exactMs: 13_330, atMostMs: 16_000, fixed: ttl },
      );
      expectStoppedReads(cluster, 'B', ttl.to);
      const onBob = mark(cluster);
      b.join('bob');
      await settled(cluster, 'B', 'bob', onBob);
      expect(b.profile('bob')?.data.coins).toBe(0);
      expect(cluster.find('B', 'trade.recovered', 'bob')).toMatchObject({ outcome: 'aborted' });
    },
  },
  {
    name: 'a live server whose presence writes fail reads as stopped; its next save finds the lock gone',
    async run(cluster) {
      const a = await cluster.server('A');
      const b = await cluster.server('B', JOINER);
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      // A stays up, but cannot beat and hears no requests.
      a.presence.faults.inject({ kind: 'fail', operation: 'set', times: Number.POSITIVE_INFINITY });
      a.messenger.faults.inject({
        kind: 'drop',
        operation: 'deliver',
        times: Number.POSITIVE_INFINITY,
      });
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
      expect(cluster.warnings('A')).toContain(
        `presence beat of server ${a.jobId} failed: Data.BackendFailed: injected failure of set ${a.jobId}`,
      );
      // The player plays on: A's next autosave has something to store, so it writes (an idle
      // profile's would wait for its lock refresh, a third of lockTtl after its last write).
      a.profile('p1')!.data.coins = 1;
      await cluster.time.pass(cluster.ms(31)); // A's next autosave
      expect(a.host.kicks.map((kick) => kick.message)).toEqual([
        'Your data was loaded on another server.',
      ]);
      expect(cluster.warnings('A')).toContain(
        `lost the lock of p1 to server ${b.jobId}; the profile is deactivated.`,
      );
      expect(await cluster.holder('p1')).toBe('B');
    },
  },
];
