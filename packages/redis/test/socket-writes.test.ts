/**
 * The store's commands of one tick leave in one socket write (`coalesce.ts`): what the socket
 * of a real connection was asked to write, call by call.
 */
import type { StoreSnapshot } from '@datadriver/core/ports';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';
import { recordWrites } from './support/socket-writes.js';

const clients = new Clients();
let client: Redis;
let store: RedisStore;
/** Each write the socket made: how many chunks (commands) it carried. */
let writes: number[];

beforeAll(async () => {
  client = await clients.open();
  store = new RedisStore({ client, prefix: uniquePrefix('socket-writes') });
  await store.update('warm', () => ({ n: 0 })); // loads the script: no NOSCRIPT below
  writes = recordWrites(client);
});
afterAll(() => clients.quitAll());

const keys = Array.from({ length: 10 }, (_, index) => `p${index}`);

describe('RedisStore: socket writes', () => {
  it('sends the reads of ten updates made in one tick in one write, and their ten compare-and-sets in fewer writes than commands', async () => {
    writes.length = 0;
    const written = await Promise.all(keys.map((key) => store.update(key, () => ({ n: 1 }))));
    expect(written.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 1 })));
    // The ten HGETALLs; each EVALSHA leaves in the tick its read's reply arrived, with the
    // others of that tick (usually all ten).
    expect(writes[0]).toBe(10);
    expect(writes.reduce((sum, chunks) => sum + chunks, 0)).toBe(20);
    expect(writes.length).toBeLessThan(11);
  });

  it('sends ten compare-and-sets made in one tick, each given its snapshot, in one write', async () => {
    const snapshots = await Promise.all(keys.map((key) => store.update(key, () => ({ n: 2 }))));
    writes.length = 0;
    const next = await Promise.all(
      keys.map((key, index) =>
        store.update(key, (current) => ({ n: (current?.n as number) + 1 }), {
          expected: snapshots[index] as StoreSnapshot,
        }),
      ),
    );
    expect(next.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 3 })));
    expect(writes).toEqual([10]);
  });

  it("sends a lone update's read and its write in a socket write each", async () => {
    writes.length = 0;
    await store.update('alone', () => ({ n: 1 }));
    expect(writes).toEqual([1, 1]);
  });
});
