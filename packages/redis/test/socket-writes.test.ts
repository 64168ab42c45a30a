/**
 * The store's commands of one tick leave in one socket write (`coalesce.ts`), but for the
 * first of a tick on a connection that awaits no reply, which leaves at once: what the socket
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
  it('sends the first read of ten updates made in one tick on an idle connection at once, the other nine in one write, and their ten compare-and-sets in fewer writes than commands', async () => {
    writes.length = 0;
    const updates = keys.map((key) => store.update(key, () => ({ n: 1 })));
    // Still in the tick that sent them: the first read has left, the rest wait for its end.
    expect(writes).toEqual([1]);
    const written = await Promise.all(updates);
    expect(written.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 1 })));
    // Then the nine other HGETALLs together; each EVALSHA leaves in the tick its read's reply
    // arrived, with the others of that tick (the first of them at once when that read left no
    // reply awaited).
    expect(writes[1]).toBe(9);
    expect(writes.reduce((sum, chunks) => sum + chunks, 0)).toBe(20);
    expect(writes.length).toBeLessThan(12);
  });

  it('sends the first of ten compare-and-sets made in one tick on an idle connection at once, and the other nine in one write', async () => {
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
    expect(writes).toEqual([1, 9]);
  });

  it('holds even the first command of a tick while the connection awaits a reply, and sends that tick in one write', async () => {
    writes.length = 0;
    const first = store.get('p0'); // the connection is idle: this read leaves at once
    expect(writes).toEqual([1]);
    // The next tick, before any socket is read: the first read's reply is still awaited.
    await new Promise((resolve) => process.nextTick(resolve));
    const reads = keys.map((key) => store.get(key));
    expect(writes).toEqual([1]);
    const records = await Promise.all([first, ...reads]);
    expect(records).toEqual([{ n: 3 }, ...keys.map(() => ({ n: 3 }))]);
    expect(writes).toEqual([1, 10]);
  });

  it("sends a lone update's read and its write in a socket write each", async () => {
    writes.length = 0;
    await store.update('alone', () => ({ n: 1 }));
    expect(writes).toEqual([1, 1]);
  });
});

describe('RedisStore: a client with auto-pipelining on', () => {
  it("sends its compare-and-sets as plain commands, the first at once and the rest of the tick in one write, none held in the client's auto-pipeline", async () => {
    const piped = await clients.open(undefined, { enableAutoPipelining: true });
    const pipedStore = new RedisStore({ client: piped, prefix: uniquePrefix('auto-pipelined') });
    const snapshots = await Promise.all(
      keys.map((key) => pipedStore.update(key, () => ({ n: 1 }))),
    );
    const pipedWrites = recordWrites(piped);
    const next = keys.map((key, index) =>
      pipedStore.update(key, () => ({ n: 2 }), { expected: snapshots[index] as StoreSnapshot }),
    );
    // Sent in this tick: an auto-pipeline would hold them until setImmediate.
    expect(piped.autoPipelineQueueSize).toBe(0);
    const written = await Promise.all(next);
    expect(written.map((snapshot) => snapshot?.record)).toEqual(keys.map(() => ({ n: 2 })));
    expect(pipedWrites).toEqual([1, 9]);
    // A read, too: its HGETALL goes plain.
    const read = pipedStore.get('p0');
    expect(piped.autoPipelineQueueSize).toBe(0);
    expect(await read).toEqual({ n: 2 });
  });

  it("writes under the client's own keyPrefix, as the client's command methods do", async () => {
    const prefixed = await clients.open(undefined, { keyPrefix: 'client-prefix:' });
    const prefix = uniquePrefix('key-prefix');
    const prefixedStore = new RedisStore({ client: prefixed, prefix });
    await prefixedStore.update('p1', () => ({ n: 7 }));
    expect(await prefixedStore.get('p1')).toEqual({ n: 7 });
    // The plain client sees the record under the client's prefix, and nothing without it.
    const stored = await client.keys(`*${prefix}*`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((key) => key.startsWith('client-prefix:'))).toBe(true);
  });
});
