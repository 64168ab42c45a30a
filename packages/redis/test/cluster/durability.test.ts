/**
 * What a SIGKILL of a master does to the saves it acknowledged, on a Redis Cluster of this
 * file's own. Redis replicates asynchronously: a save the master acknowledged but had not yet
 * sent to its replica dies with it, and the replica promoted in its place never saw it. Two
 * stores write at once on keys one master serves, one by default and one with
 * `waitForReplicas: 1`, while that master is killed; with the replica in sync, and with the
 * replica cut off first (paused, its link dropped), as behind a stalled network.
 *
 * `DD_FAILOVER_RUNS=n` (`pnpm --filter @datadriver/redis failover`) runs it n times.
 */
import type { RedisClusterBackend } from '@datadriver/backends';
import { DataDriverError } from '@datadriver/core';
import { describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/index.js';
import { recordKey } from '../../src/keys.js';
import { connectCluster } from '../support/cluster.js';
import { keySlot } from '../support/key-slot.js';
import { dropReplicaLinks, ownCluster } from '../support/own-cluster.js';
import { quiet, uniquePrefix } from '../support/redis.js';

const RUNS = Number(process.env.DD_FAILOVER_RUNS ?? '1');
const KEYS = 20;

const own = ownCluster();

/** One store's writers: each saves its counter without pause until its master is gone. */
async function writers(store: RedisStore, keys: readonly string[]) {
  const acknowledged = new Map<string, number>();
  let refused = 0;
  let writing = true;
  const done = Promise.all(
    keys.map(async (key) => {
      for (let n = 0; writing; n += 1) {
        try {
          await store.update(key, () => ({ n }));
          acknowledged.set(key, n);
        } catch (error) {
          refused += 1;
          // Fewer replicas than asked: not acknowledged, and saved again as core would.
          if (DataDriverError.isInstance(error) && /replica/.test(error.message)) continue;
          return; // the master is gone: nothing after this counts
        }
      }
    }),
  );
  return {
    stop: async () => {
      writing = false;
      await done;
    },
    /** Acknowledged saves the keys do not hold now, and how many were acknowledged. */
    count: async () => {
      let lost = 0;
      for (const [key, n] of acknowledged) {
        const stored = ((await store.get(key))?.n as number | undefined) ?? 0;
        lost += Math.max(0, n - stored);
      }
      const total = [...acknowledged.values()].reduce((sum, n) => sum + n, 0);
      return { lost, acknowledged: total, refused };
    },
  };
}

describe.each(Array.from({ length: RUNS }, (_, run) => run + 1))('durability run %i', (run) => {
  for (const cutOff of [false, true]) {
    it(`a SIGKILL of the master, replica ${cutOff ? 'cut off' : 'in sync'}: no save acknowledged with waitForReplicas: 1 is lost${cutOff ? ', and those acknowledged by default are' : ''}`, async () => {
      const prefix = uniquePrefix(`durability-${run}-${cutOff}`);
      const [{ master, replicas, slots }] = (await own.cluster.shards()) as [
        Awaited<ReturnType<RedisClusterBackend['shards']>>[number],
      ];
      const served = (key: string) => {
        const slot = keySlot(recordKey(prefix, key));
        return slots.some(([start, end]) => slot >= start && slot <= end);
      };
      const keys = Array.from({ length: 20 * KEYS }, (_, n) => `PlayerData/u${n}`)
        .filter(served)
        .slice(0, 2 * KEYS);
      // A client each: a WAIT holds its connection, and the other store must not wait behind it.
      const stores = await Promise.all(
        [0, 1].map(async (waitForReplicas) => {
          const client = own.clients.add(await connectCluster(own.cluster.nodes));
          return new RedisStore({ client, prefix, waitForReplicas, logger: quiet });
        }),
      );
      const running = [
        await writers(stores[0]!, keys.slice(0, KEYS)),
        await writers(stores[1]!, keys.slice(KEYS)),
      ];
      if (cutOff) {
        await own.cluster.pause(replicas[0]!);
        await dropReplicaLinks(master);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await own.cluster.kill(master, {
        onKilled: async () => {
          if (cutOff) await own.cluster.resume(replicas[0]!);
        },
      });
      await Promise.all(running.map((each) => each.stop()));
      await own.cluster.restart(master);
      const [byDefault, waited] = await Promise.all(running.map((each) => each.count()));
      for (const [name, result] of [
        ['by default', byDefault!],
        ['waitForReplicas: 1', waited!],
      ] as const) {
        console.info(
          `durability, replica ${cutOff ? 'cut off' : 'in sync'}, ${name}: ${result.lost} of ${result.acknowledged} acknowledged saves lost to the SIGKILL (${KEYS} keys, ${result.refused} saves refused)`,
        );
      }
      expect(waited!.lost).toBe(0);
      // Cut off from its replica, the master acknowledges what no replica gets: lost with it.
      if (cutOff) expect(byDefault!.lost).toBeGreaterThan(0);
    }, 60_000);
  }
});
