/** The same-server rows: a rejoin on the server the player just left. */
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import { expectWait, mark, type Scenario, settled, waitOf } from './scenario.js';

/** A player on A with 7 unsaved coins, leaving while A's leave save is stalled. */
async function leaveWithStalledSave(cluster: Cluster, outcome: 'fail' | 'lose-response' | 'land') {
  const a = await cluster.server('A');
  const from = mark(cluster);
  a.join('p1');
  await settled(cluster, 'A', 'p1', from);
  const profile = a.profile('p1')!;
  profile.data.coins = 7;
  const stall = a.store.faults.inject({ kind: 'stall', operation: 'update' });
  if (outcome !== 'land') a.store.faults.inject({ kind: outcome, operation: 'update' });
  a.leave('p1');
  return { a, profile, stall };
}

export const sameServerScenarios: Scenario[] = [
  {
    name: '1. same-server rejoin during a failing leave save: the retained profile is adopted, nothing lost',
    async run(cluster) {
      const { a, profile, stall } = await leaveWithStalledSave(cluster, 'fail');
      const from = mark(cluster);
      a.join('p1');
      await cluster.time.pass(cluster.ms(0.2));
      stall.release(); // the leave save now fails
      const loaded = await settled(cluster, 'A', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'adopted' });
      // The player continues on the same Profile object with everything earned before the leave.
      expect(a.profile('p1')).toBe(profile);
      expect(profile.data.coins).toBe(7);
      const record = await cluster.record('p1');
      expect(record?.data).toEqual({ coins: 7 });
      expect(record?.meta.lock?.token).toBe(profile.lockToken);
      expect(a.host.kicks).toEqual([]);
      // Waits for the failing save (200 ms stall + 100 ms call), then one adoption save.
      expectWait(cluster, waitOf(loaded), { exactMs: 400, atMostMs: 1000 });
      expect(cluster.find('A', 'profile.adopted', 'p1')).toMatchObject({ outcome: 'kept' });
    },
  },
  {
    name: '2. same-server rejoin during a lost leave save: adoption retakes its own release',
    async run(cluster) {
      const { a, profile, stall } = await leaveWithStalledSave(cluster, 'lose-response');
      const from = mark(cluster);
      a.join('p1');
      await cluster.time.pass(cluster.ms(0.2));
      stall.release(); // the leave save commits, but its response is lost
      const loaded = await settled(cluster, 'A', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'adopted' });
      expect(a.profile('p1')).toBe(profile);
      const record = await cluster.record('p1');
      // Unlocked with releasedToken = this token, nobody wrote since: the lock is retaken.
      expect(record?.meta.lock?.token).toBe(profile.lockToken);
      expect(record?.meta.releasedToken).toBeUndefined();
      expect(record?.data).toEqual({ coins: 7 });
      expectWait(cluster, waitOf(loaded), { exactMs: 400, atMostMs: 1000 });
      expect(cluster.find('A', 'profile.adopted', 'p1')).toMatchObject({ outcome: 'kept' });
      // A lost response looks like a failure to the server that sent it.
      expect(cluster.warnings('A')).toEqual([
        `release of p1 failed; the profile is retained and retried: Data.BackendFailed: injected lost response of update ${cluster.driverName}/p1`,
      ]);
    },
  },
  {
    name: 'same-server rejoin while the leave save is still running: waits for it, then loads the saved record',
    async run(cluster) {
      const { a, profile, stall } = await leaveWithStalledSave(cluster, 'land');
      const from = mark(cluster);
      a.join('p1');
      expect(cluster.find('A', 'load.waiting', 'p1')).toMatchObject({ reason: 'local-release' });
      await cluster.time.pass(cluster.ms(0.2));
      stall.release();
      const loaded = await settled(cluster, 'A', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'unlocked' });
      const rejoined = a.profile('p1')!;
      expect(rejoined).not.toBe(profile);
      expect(profile.active).toBe(false);
      expect(rejoined.data.coins).toBe(7);
      // The leave save (stall + 100 ms), then one load (100 ms): about one save.
      expectWait(cluster, waitOf(loaded), { exactMs: 400, atMostMs: 1000 });
    },
  },
  {
    name: 'same-server rejoin after a failed leave save: adopted at once, no wait',
    async run(cluster) {
      const { a, profile, stall } = await leaveWithStalledSave(cluster, 'fail');
      stall.release();
      await cluster.until(
        () => cluster.find('A', 'profile.release-failed', 'p1') !== undefined,
        cluster.ms(5),
      );
      expect(cluster.warnings('A')[0]).toMatch(
        /^release of p1 failed; the profile is retained and retried/,
      );
      const from = mark(cluster);
      a.join('p1');
      const loaded = await settled(cluster, 'A', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'adopted' });
      expect(a.profile('p1')).toBe(profile);
      // No wait for the lock; the adoption save itself is one store call.
      expectWait(cluster, waitOf(loaded), { exactMs: 100, atMostMs: 500 });
    },
  },
];
