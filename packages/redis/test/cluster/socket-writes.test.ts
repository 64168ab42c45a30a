/**
 * On a Redis Cluster, the store's commands of one tick leave each master's connection in one
 * socket write (`coalesce.ts`), whichever masters the keys' slots send them to.
 */
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/index.js';
import { connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';
import { recordWrites } from '../support/socket-writes.js';

const clients = new Clients();
let cluster: Cluster;
let store: RedisStore;
let prefix: string;
const keys = Array.from({ length: 12 }, (_, index) => `p${index}`);

beforeAll(async () => {
  cluster = clients.add(await connectCluster());
  prefix = uniquePrefix('cluster-writes');
  store = new RedisStore({ client: cluster, prefix });
  // Connects to every master and loads the script on each: no NOSCRIPT below.
  await Promise.all(keys.map((key) => store.update(key, () => ({ n: 0 }))));
});
afterAll(() => clients.quitAll());

describe('RedisStore on a Redis Cluster: socket writes', () => {
  it('sends the reads of twelve updates made in one tick in one write per master', async () => {
    // A master that owns none of the keys may not have connected at all: nothing to record.
    const masters = cluster.nodes('master').filter((node) => node.stream !== undefined);
    const writes = masters.map((node) => recordWrites(node));
    const written = await Promise.all(keys.map((key) => store.update(key, () => ({ n: 1 }))));
    expect(written.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 1 })));
    const used = writes.filter((calls) => calls.length > 0);
    expect(used.length).toBeGreaterThan(1); // the keys span masters
    // Each master's first write carries every read of the tick it was sent; together, twelve.
    expect(used.map((calls) => calls[0]).reduce((sum, chunks) => sum! + chunks!, 0)).toBe(12);
    const total = used.flat().reduce((sum, chunks) => sum + chunks, 0);
    expect(total).toBe(24);
  });

  it('sends the compare-and-sets of twelve updates made in one tick with waitForReplicas in one write per master', async () => {
    const client = clients.add(await connectCluster());
    const waiting = new RedisStore({ client, prefix, waitForReplicas: 1 });
    const snapshots = await Promise.all(keys.map((key) => waiting.update(key, () => ({ n: 2 }))));
    const masters = client.nodes('master').filter((node) => node.stream !== undefined);
    const writes = masters.map((node) => recordWrites(node));
    const written = await Promise.all(
      keys.map((key, index) =>
        waiting.update(key, (current) => ({ n: (current?.n as number) + 1 }), {
          expected: snapshots[index]!,
        }),
      ),
    );
    expect(written.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 3 })));
    const used = writes.filter((calls) => calls.length > 0);
    expect(used.length).toBeGreaterThan(1);
    // One pipeline (the script and its WAIT) per update, the tick's pipelines in one write.
    expect(used.map((calls) => calls.length)).toEqual(used.map(() => 1));
    expect(used.flat().reduce((sum, chunks) => sum + chunks, 0)).toBe(12);
  });
});
