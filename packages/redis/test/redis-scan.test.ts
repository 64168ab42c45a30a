/**
 * The Redis layout behind the optional scans: only record hashes are store keys (not the
 * versions kept beside them, not presence strings or channels), whatever characters the keys
 * hold, braces and escapes included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresence, RedisStore } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
afterAll(() => clients.quitAll());

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('scans', () => {
  let store: RedisStore;
  let presence: RedisPresence;
  const keys = ['PlayerData/u1', 'PlayerData/a}b%7D{c', 'PlayerData#trade/t1', 'Player/x'];

  beforeAll(async () => {
    const prefix = uniquePrefix('scan');
    const client = await clients.open();
    store = new RedisStore({ client, prefix, versions: { keep: 3 } });
    presence = new RedisPresence({ client, prefix });
    for (const key of keys) {
      await store.update(key, () => ({ n: 1 }), { keepVersion: true });
      await store.update(key, () => ({ n: 2 }), { keepVersion: true });
    }
    await presence.set('server-a', '1', 30);
    await presence.set('PlayerData/u1', '1', 30);
  });

  it('list the record keys, not their versions or the presence keys', async () => {
    expect((await collect(store.scan(''))).sort()).toEqual([...keys].sort());
    expect((await collect(store.scan('PlayerData/'))).sort()).toEqual([
      'PlayerData/a}b%7D{c',
      'PlayerData/u1',
    ]);
    expect(await collect(store.scan('PlayerData/a}'))).toEqual(['PlayerData/a}b%7D{c']);
  });

  it('list the presence keys with the ms left, and no record', async () => {
    const entries = await collect(presence.scan());
    expect(entries.map((entry) => [entry.key, entry.value]).sort()).toEqual([
      ['PlayerData/u1', '1'],
      ['server-a', '1'],
    ]);
    for (const entry of entries) {
      expect(entry.expiresInMs).toBeGreaterThan(25_000);
      expect(entry.expiresInMs).toBeLessThanOrEqual(30_000);
    }
  });
});
