/**
 * Support tools on a real backend: `driver.view` reads a profile through the store port as it
 * is (its `get`), from a process that holds nothing, while a player plays on another server;
 * `driver.kick` ends a live session through its holder, over the real bus.
 */
import { expect } from 'vitest';
import { mark, type Scenario, settled } from './scenario.js';

export const supportScenarios: Scenario[] = [
  {
    name: 'a support process views a profile a player plays on A: the data as last saved and A as its holder; nobody is kicked and nothing is written',
    async run(cluster) {
      const a = await cluster.server('A');
      const from = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', from);
      const profile = a.profile('p1')!;
      profile.data.coins = 12;
      await cluster.time.until(profile.save());
      profile.data.coins = 13; // not saved: a view does not see it
      const before = await cluster.record('p1');
      const support = await cluster.server('S', { handoff: false });
      const view = await cluster.time.until(support.driver.view('p1'));
      expect(view).toEqual({
        key: 'p1',
        data: { coins: 12 },
        version: before?.meta.version,
        lock: {
          jobId: before?.meta.lock?.jobId,
          time: before?.meta.lock?.time,
          presence: before?.meta.lock?.presence,
        },
      });
      expect(view?.lock?.jobId).toBe(a.driver.jobId);
      expect(await cluster.record('p1')).toEqual(before);
      expect(profile.active).toBe(true);
      expect(cluster.events.filter((event) => event.type === 'profile.kicked')).toEqual([]);
      expect(await cluster.time.until(support.driver.view('nobody'))).toBeUndefined();
    },
  },
  {
    name: 'an operator kicks a player playing on A: A kicks them with the operator’s words, its leave save lands, and the lock ends released',
    async run(cluster) {
      const a = await cluster.server('A');
      const from = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', from);
      a.profile('p1')!.data.coins = 21; // saved by the leave save
      const operator = await cluster.server('O');
      const message = 'Maintenance: back in 5 minutes.';
      const result = await cluster.time.until(operator.driver.kick('p1', { message }));
      expect(result).toEqual({ ended: true });
      expect(a.host.kicks.map((kick) => kick.message)).toEqual([message]);
      const record = await cluster.record('p1');
      expect(record?.data).toEqual({ coins: 21 });
      expect(record?.meta.lock).toBeUndefined();
      expect(operator.profile('p1')).toBeUndefined();
    },
  },
];
