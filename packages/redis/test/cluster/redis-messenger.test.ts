/** RedisMessenger on a Redis Cluster client: what it refuses, and what it needs of the client. */
import { ErrorCode } from '@datadriver/core';
import { recordingLogger } from '@datadriver/testkit/cluster';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisMessenger } from '../../src/index.js';
import { channelOf } from '../../src/keys.js';
import { connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

const clients = new Clients();
afterAll(() => clients.quitAll());

async function until(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('RedisMessenger on a Redis Cluster', () => {
  it('refuses sharded: true on a Cluster client without shardedSubscribers, saying what to set', async () => {
    const client = clients.add(await connectCluster());
    expect(() => new RedisMessenger({ client, sharded: true })).toThrowError(
      expect.objectContaining({
        code: ErrorCode.InvalidConfig,
        message: expect.stringMatching(/shardedSubscribers: true/),
      }),
    );
    expect(new RedisMessenger({ client, sharded: false }).sharded).toBe(false);
    const able = clients.add(await connectCluster(undefined, { sharded: true }));
    expect(new RedisMessenger({ client: able, sharded: true }).sharded).toBe(true);
  });

  it("delivers none of the subscription check's probes, and no debug line about them", async () => {
    const client = clients.add(await connectCluster(undefined, { sharded: true }));
    const logger = recordingLogger();
    const prefix = uniquePrefix('probes');
    const messenger = new RedisMessenger({ client, prefix, sharded: true, logger });
    const received: unknown[] = [];
    await messenger.subscribe('t', (message) => void received.push(message));
    await client.spublish(channelOf(prefix, 't'), 'dd-probe:someone:1');
    await messenger.publish('t', { n: 1 });
    await until(() => received.length > 0);
    expect(received).toEqual([{ n: 1 }]);
    expect(logger.lines.filter((line) => /probe|not a JSON object/.test(line.message))).toEqual([]);
    await messenger.close();
  });

  for (const sharded of [false, true]) {
    it(`subscribes at once on a Cluster client without an offline queue (${sharded ? 'sharded' : 'classic'})`, async () => {
      // The subscriber connection is new, so still connecting: it must queue its SUBSCRIBE
      // rather than answer "Cluster isn't ready", whatever the user's client does.
      const client = clients.add(
        await connectCluster(undefined, { sharded, cluster: { enableOfflineQueue: false } }),
      );
      const messenger = new RedisMessenger({ client, prefix: uniquePrefix('queue'), sharded });
      const received: unknown[] = [];
      await messenger.subscribe('t', (message) => void received.push(message));
      await messenger.publish('t', { n: 1 });
      await until(() => received.length > 0);
      expect(received).toEqual([{ n: 1 }]);
      await messenger.close();
    });
  }
});
