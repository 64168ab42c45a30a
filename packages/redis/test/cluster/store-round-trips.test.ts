/**
 * Issue 21 on a Redis Cluster: a holder's write is one EVALSHA on the master that owns the
 * record's slot, and a moved version is answered in that same reply, as on one node.
 */
import type { StoreRecord } from '@datadriver/core/ports';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/index.js';
import { recordKey } from '../../src/keys.js';
import { connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

const clients = new Clients();
let cluster: Cluster;
let store: RedisStore;
let prefix: string;
const sent: string[] = [];
/** The store's commands since the last look, by name: each one a round trip. */
const take = () => sent.splice(0).filter((name) => ['hgetall', 'evalsha', 'eval'].includes(name));

beforeAll(async () => {
  cluster = clients.add(await connectCluster());
  prefix = uniquePrefix('cluster-cost');
  store = new RedisStore({ client: cluster, prefix, versions: { keep: 3 } });
  const send = cluster.sendCommand.bind(cluster);
  cluster.sendCommand = (command, stream, node) => {
    sent.push(command.name);
    return send(command, stream, node);
  };
});
afterAll(() => clients.quitAll());

describe('RedisStore on a Redis Cluster: what a write sends', () => {
  it('a write with no snapshot is one HGETALL and one EVALSHA; given its snapshot, one EVALSHA', async () => {
    // The first write on a master loads the script there (NOSCRIPT, then EVAL).
    await store.update('p1', () => ({ n: 0 }));
    take();
    let snapshot = await store.update('p1', () => ({ n: 1 }), { keepVersion: true });
    expect(take()).toEqual(['hgetall', 'evalsha']);
    snapshot = await store.update('p1', (current) => ({ n: (current?.n as number) + 1 }), {
      expected: snapshot!,
      keepVersion: true,
    });
    expect(take()).toEqual(['evalsha']);
    expect(snapshot?.record).toEqual({ n: 2 });
    expect(await cluster.hget(recordKey(prefix, 'p1'), 'version')).toBe(snapshot?.version);
  });

  it('a moved version costs a second EVALSHA and no read: the reply carried the record', async () => {
    const stale = await store.update('p2', () => ({ n: 1 }));
    await cluster.hset(recordKey(prefix, 'p2'), 'version', 'theirs', 'record', '{"n":50}');
    take();
    const seen: Array<StoreRecord | undefined> = [];
    const result = await store.update(
      'p2',
      (current) => {
        seen.push(current);
        return { n: (current?.n as number) + 1 };
      },
      { expected: stale! },
    );
    expect(take()).toEqual(['evalsha', 'evalsha']);
    expect(seen).toEqual([{ n: 1 }, { n: 50 }]);
    expect(result?.record).toEqual({ n: 51 });
    expect(await store.get('p2')).toEqual({ n: 51 });
  });
});
