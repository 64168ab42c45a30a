/**
 * Profile messages on a real backend: the inbox goes through the store port as it is, the
 * nudge through the bus. A grant sent while the player is offline is applied at their next
 * join, before the game sees the profile; one sent while they play on another server is
 * applied there through the nudge, once, long before an autosave would find it.
 */
import type { MessageHandler, ProfileMessage } from '@datadriver/core';
import { expect } from 'vitest';
import type { Cluster } from '../cluster/cluster.js';
import type { PlayerData } from '../cluster/server.js';
import { mark, type Scenario, settled } from './scenario.js';

interface Applied {
  readonly server: string;
  readonly id: string;
  readonly time: number;
}

/** An `onMessage` that adds `body.coins`, recording which server applied which id, when. */
function granting(cluster: Cluster, applied: Applied[], server: string) {
  const handler: MessageHandler<PlayerData> = (profile, message: ProfileMessage) => {
    profile.data.coins += (message.body as { coins: number }).coins;
    applied.push({ server, id: message.id, time: cluster.time.now() });
  };
  return handler;
}

export const messageScenarios: Scenario[] = [
  {
    name: 'a grant sent while the player is offline (twice, one id) is applied once at their next join, before it settles',
    async run(cluster) {
      const applied: Applied[] = [];
      // A webhook process: holds nothing, runs no handoff, applies nothing.
      const webhook = await cluster.server('W', { handoff: false });
      const first = await cluster.time.until(
        webhook.driver.send('p1', { coins: 100 }, { id: 'r1' }),
      );
      const again = await cluster.time.until(
        webhook.driver.send('p1', { coins: 100 }, { id: 'r1' }),
      );
      expect([first.outcome, again.outcome]).toEqual(['queued', 'duplicate']);
      const a = await cluster.server('A', { onMessage: granting(cluster, applied, 'A') });
      const from = mark(cluster);
      a.join('p1');
      const loaded = await settled(cluster, 'A', 'p1', from);
      expect(loaded.type).toBe('load.loaded');
      expect(applied.map(({ server, id }) => [server, id])).toEqual([['A', 'r1']]);
      expect(applied[0]!.time).toBeLessThanOrEqual(loaded.time);
      expect(a.profile('p1')?.data.coins).toBe(100);
      expect((await cluster.record('p1'))?.data).toEqual({ coins: 100 });
    },
  },
  {
    name: 'a gift sent from B to a player online on A is applied on A through the nudge, once',
    async run(cluster) {
      const applied: Applied[] = [];
      const onMessage = granting(cluster, applied, 'A');
      const a = await cluster.server('A', { onMessage, autosaveSeconds: 10 });
      const b = await cluster.server('B', { onMessage: granting(cluster, applied, 'B') });
      const from = mark(cluster);
      a.join('p1');
      const loaded = await settled(cluster, 'A', 'p1', from);
      await cluster.time.until(b.driver.send('p1', { coins: 5 }, { id: 'gift-1' }));
      await cluster.until(() => applied.length > 0, cluster.ms(9), 'the gift applied on A');
      // The nudge brought it, not A's first autosave (autosaveSeconds 10, scaled, after its load).
      expect(applied[0]!.time).toBeLessThan(loaded.time + cluster.ms(10));
      // Past A's first autosave, whose pass finds the inbox trimmed: nothing more applies.
      await cluster.time.pass(Math.max(0, loaded.time + cluster.ms(11) - cluster.time.now()));
      expect(applied.map(({ server, id }) => [server, id])).toEqual([['A', 'gift-1']]);
      expect((await cluster.record('p1'))?.data).toEqual({ coins: 5 });
    },
  },
];
