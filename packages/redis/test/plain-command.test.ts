/**
 * The store's commands are made as ioredis makes its own (`plain-command.ts`), without the
 * `Array.prototype.flat` copy of their arguments that V8 makes slowly: on a real Redis, what is
 * written and read back, and that no `flat` of the array prototype ran for them.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisStore } from '../src/index.js';
import { Clients, uniquePrefix } from './support/redis.js';

const clients = new Clients();
let client: Redis;
let store: RedisStore;

beforeAll(async () => {
  client = await clients.open();
  store = new RedisStore({ client, prefix: uniquePrefix('plain-command') });
  await store.update('warm', () => ({ n: 0 })); // loads the script: no NOSCRIPT below
});
afterAll(() => clients.quitAll());

describe('RedisStore: its commands', () => {
  it('write and read back a record, with no Array.prototype.flat of their arguments', async () => {
    const flat = vi.spyOn(Array.prototype, 'flat');
    try {
      const written = await store.update('p1', () => ({ coins: 7, name: 'é}{%' }));
      const again = await store.update(
        'p1',
        (current) => ({ coins: (current?.coins as number) + 1 }),
        {
          expected: written as NonNullable<typeof written>,
        },
      );
      expect(again?.record).toEqual({ coins: 8 });
      expect(await store.get('p1')).toEqual({ coins: 8 });
      expect(flat).not.toHaveBeenCalled();
    } finally {
      flat.mockRestore();
    }
  });

  it('send each argument as the command made it: the script sees the record whole', async () => {
    const big = { text: 'x'.repeat(10_000), list: [1, 2, 3] };
    await store.update('p2', () => big);
    expect(await store.get('p2')).toEqual(big);
  });
});
