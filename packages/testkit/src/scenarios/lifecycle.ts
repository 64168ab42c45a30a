/** restoreAt and erase racing a live holder on another server: they go through handoff too. */
import { DEFAULT_KICK_MESSAGES } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import { mark, type Scenario, settled } from './scenario.js';

/** Player p1 on A with three saved versions (10, 20, 30 coins); returns when each landed. */
async function historyOnA(cluster: Cluster) {
  const a = await cluster.server('A');
  const b = await cluster.server('B');
  const from = mark(cluster);
  a.join('p1');
  await settled(cluster, 'A', 'p1', from);
  const profile = a.profile('p1')!;
  const savedAt: number[] = [];
  for (const coins of [10, 20, 30]) {
    await cluster.time.pass(cluster.ms(1));
    profile.data.coins = coins;
    await cluster.time.until(profile.save());
    savedAt.push(cluster.time.now());
  }
  profile.data.coins = 31; // unsaved progress: the holder's release saves it before B restores
  return { a, b, savedAt };
}

export const lifecycleScenarios: Scenario[] = [
  {
    name: 'restoreAt on B while the player is live on A: A hands over, B writes the old version',
    async run(cluster) {
      const { a, b, savedAt } = await historyOnA(cluster);
      const midway = savedAt[1]! + cluster.ms(0.5);
      const restored = await cluster.time.until(b.driver.restoreAt('p1', midway), cluster.ms(30));
      expect(restored.data.coins).toBe(20);
      expect(a.host.kicks.map((kick) => kick.message)).toEqual([DEFAULT_KICK_MESSAGES.support]);
      expect(await cluster.holder('p1')).toBe('B');
      expect((await cluster.record('p1'))?.data).toEqual({ coins: 20 });
      // History is kept: the release's 31 coins and the restore are both versions now.
      const versions = await b.driver.versions('p1');
      expect(versions.length).toBeGreaterThanOrEqual(5);
      expect(cluster.find('B', 'profile.restored', 'p1')).toBeDefined();
    },
  },
  {
    name: 'erase on B while the player is live on A: A hands over, nothing is left to load',
    async run(cluster) {
      const { a, b } = await historyOnA(cluster);
      await cluster.time.until(b.driver.erase('p1'), cluster.ms(30));
      expect(a.host.kicks.map((kick) => kick.message)).toEqual([DEFAULT_KICK_MESSAGES.support]);
      expect(await cluster.record('p1')).toBeUndefined();
      expect(await b.driver.versions('p1')).toEqual([]);
      const from = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', from);
      expect(a.profile('p1')?.data).toEqual({ coins: 0 });
    },
  },
];
