/**
 * What depends on where keys live in a Redis Cluster: a record and its versions in one slot
 * whatever the profile key holds (issue 16's CROSSSLOT), and trades between profiles whose
 * records live on different masters.
 */
import { mark, settled, withCluster } from '@datadriver/testkit/cluster';
import type { Cluster as RedisCluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/index.js';
import { recordKey, versionKeys } from '../../src/keys.js';
import { clusterNodes, connectCluster } from '../support/cluster.js';
import { redisFleetBackend } from '../support/fleet-backend.js';
import { keySlot } from '../support/key-slot.js';
import { Clients, uniquePrefix } from '../support/redis.js';

const clients = new Clients();
let client: RedisCluster;
beforeAll(async () => {
  client = clients.add(await connectCluster());
});
afterAll(() => clients.quitAll());

/** The master (`host:port`) that serves `name`, as the client's slot map says. */
function masterOf(name: string): string {
  return client.slots[keySlot(name)]![0]!;
}

describe('versions on a Redis Cluster', () => {
  it('keeps and restores versions of profile keys holding braces, in the record slot', async () => {
    const prefix = uniquePrefix('slots');
    const store = new RedisStore({ client, prefix, versions: { keep: 5 } });
    for (const key of [
      'PlayerData/user}42',
      'PlayerData/{t}u',
      'PlayerData/{}x',
      'PlayerData/a{b}c}',
    ]) {
      const slot = Number(await client.cluster('KEYSLOT', recordKey(prefix, key)));
      const { index, records } = versionKeys(prefix, key);
      expect(Number(await client.cluster('KEYSLOT', index)), key).toBe(slot);
      expect(Number(await client.cluster('KEYSLOT', records)), key).toBe(slot);
      await store.update(key, () => ({ n: 1 }), { keepVersion: true });
      await store.update(key, () => ({ n: 2 }), { keepVersion: true });
      const versions = await store.versions!.list(key);
      expect(versions, key).toHaveLength(2);
      expect(await store.versions!.read(key, versions[1]!.id), key).toEqual({ n: 1 });
      await store.versions!.purge(key);
      expect(await store.versions!.list(key), key).toEqual([]);
      expect(await store.get(key), key).toEqual({ n: 2 });
    }
  });
});

describe('trades on a Redis Cluster', () => {
  it('commits a trade between profiles on different masters and leaves no journal', async () => {
    const backend = await redisFleetBackend({ scale: 0.1, cluster: clusterNodes() });
    await withCluster(backend, async (cluster) => {
      const a = await cluster.server('A');
      const name = (player: string) => `${cluster.driverName}/${player}`;
      // Two players whose records two different masters serve.
      const players = Array.from({ length: 50 }, (_, n) => `player-${n}`);
      const first = players[0]!;
      // A name's slot is its tag's, whatever the prefix (which holds no brace).
      const served = (player: string) => masterOf(recordKey('', name(player)));
      const second = players.find((player) => served(player) !== served(first))!;
      expect(second).toBeDefined();
      const from = mark(cluster);
      a.join(first);
      a.join(second);
      await settled(cluster, 'A', first, from);
      await settled(cluster, 'A', second, from);
      const x = a.profile(first)!;
      const y = a.profile(second)!;
      x.data.coins = 30;
      await x.save();
      await a.driver.trade(x, y, (mine, theirs) => {
        mine.coins -= 10;
        theirs.coins += 10;
      });
      const committed = cluster.events.find(
        (event) => event.type === 'trade.committed' && event.key === first,
      );
      expect(committed).toBeDefined();
      // Core deletes the settled journal once both markers are cleared.
      const journal = `${cluster.driverName}#trade/${(committed as { trade: string }).trade}`;
      await cluster.until(
        async () => (await backend.read(journal)) === undefined,
        2_000,
        'journal',
      );
      expect((await cluster.record(first))?.data).toMatchObject({ coins: 20 });
      expect((await cluster.record(second))?.data).toMatchObject({ coins: 10 });
      expect((await cluster.record(first))?.meta.trade).toBeUndefined();
      expect((await cluster.record(second))?.meta.trade).toBeUndefined();
    });
  });
});
