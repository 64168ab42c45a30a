/**
 * A full outage of the Redis Cluster, as seen by one client (every node's proxy stopped): each
 * call of each adapter fails typed within its deadline, however many are made; none of the
 * calls that failed stays in the Cluster client's offline queue or runs once the cluster is
 * back; and the messenger's subscriptions work again: those made before the outage deliver
 * again, and one refused during it is made by the handoff's next beat.
 */
import { DataDriverError, ErrorCode, Handoff } from '@datadriver/core';
import { eventually } from '@datadriver/testkit';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger, RedisPresence, RedisStore } from '../../src/index.js';
import { queuedCommands } from '../../src/offline-queue.js';
import { ClusterProxies, connectCluster } from '../support/cluster.js';
import { Clients, quiet, TEST_OPTIONS, uniquePrefix } from '../support/redis.js';

const DEADLINE_MS = TEST_OPTIONS.commandTimeout!;
/** Timer and event-loop jitter on a loaded machine. */
const SLACK_MS = 750;

const clients = new Clients();
let proxies: ClusterProxies;
let client: Cluster;
const prefix = uniquePrefix('outage');

beforeAll(async () => {
  proxies = await ClusterProxies.start();
  client = clients.add(await proxies.connect({ sharded: true }));
});
afterAll(async () => {
  await clients.quitAll();
  await proxies.close();
});

/** How `call` ended, and after how long. */
async function timed(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await call().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, ms: Date.now() - started };
}

function expectUnavailable({ error, ms }: { error: unknown; ms: number }, what: string): void {
  expect(DataDriverError.isInstance(error), `${what}: ${String(error)}`).toBe(true);
  expect((error as DataDriverError).code, what).toBe(ErrorCode.Unavailable);
  expect(ms, what).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);
}

/** The commands other than (un)subscriptions that `cluster` holds in its offline queue. */
function queuedCalls(cluster: Cluster): string[] {
  return queuedCommands(cluster).filter((name) => !/subscribe$/.test(name));
}

/** Resolves once `cluster` answers again and has sent whatever its offline queue held. */
async function backAgain(cluster: Cluster): Promise<void> {
  await eventually(() => cluster.ping());
  await until(() => queuedCommands(cluster).length === 0, 5_000, 'the offline queue sent');
  // What was sent on the way back has had time to run on its node.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

async function until(condition: () => boolean, limitMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a full outage of the Redis Cluster', () => {
  it('fails every call of every adapter typed within its deadline, the later ones too', async () => {
    const store = new RedisStore({ client, prefix, logger: quiet, versions: { keep: 3 } });
    const presence = new RedisPresence({ client, prefix, logger: quiet });
    const messenger = new RedisMessenger({ client, prefix, logger: quiet, sharded: true });
    await store.update('PlayerData/p', () => ({ n: 1 }), { keepVersion: true });
    await proxies.stop();
    try {
      // Twice each: the first call meets the dropped connections, the later ones the
      // Cluster client's own offline queue, which its node options do not bound.
      for (const round of [1, 2]) {
        const calls: Record<string, () => Promise<unknown>> = {
          get: () => store.get('PlayerData/p'),
          update: () => store.update('PlayerData/p', () => ({ n: 2 })),
          'versions.list': () => store.versions!.list('PlayerData/p'),
          'versions.read': () => store.versions!.read('PlayerData/p', 'x'),
          'versions.purge': () => store.versions!.purge('PlayerData/p'),
          'presence.set': () => presence.set('srv', '1', 10),
          'presence.get': () => presence.get('srv'),
          publish: () => messenger.publish('CKHandoff_srv', { n: 1 }),
          subscribe: () => messenger.subscribe('CKHandoff_down', () => undefined),
        };
        const results = await Promise.all(
          Object.entries(calls).map(async ([what, call]) => [what, await timed(call)] as const),
        );
        for (const [what, result] of results) expectUnavailable(result, `${what} (${round})`);
        expect(queuedCalls(client), `queued after round ${round}`).toEqual([]);
      }
      // The queue is read for real: the subscription, kept on purpose, is in it.
      expect(queuedCommands(client)).toContain('ssubscribe');
    } finally {
      await proxies.start();
    }
    await backAgain(client);
    expect(await store.get('PlayerData/p')).toEqual({ n: 1 });
    // The refused purge did not run on the way back, nor the refused beat.
    expect(await store.versions!.list('PlayerData/p')).toHaveLength(1);
    expect(await presence.get('srv')).toBeUndefined();
    await messenger.close();
  });

  it('runs none of a flood of refused writes and publishes once the cluster is back', async () => {
    const presence = new RedisPresence({ client, prefix, logger: quiet });
    const messenger = new RedisMessenger({ client, prefix, logger: quiet });
    // A listener that never loses the cluster: it would see a refused publish sent late.
    const listener = clients.add(await connectCluster());
    const heard = new RedisMessenger({ client: listener, prefix, logger: quiet });
    const late: unknown[] = [];
    await heard.subscribe('CKHandoff_flood', (message) => void late.push(message));
    const N = 200;
    await proxies.stop();
    try {
      const started = Date.now();
      const results = await Promise.allSettled([
        ...Array.from({ length: N }, (_, n) => presence.set(`flood-${n}`, '1', 600)),
        ...Array.from({ length: 20 }, (_, n) => messenger.publish('CKHandoff_flood', { n })),
      ]);
      expect(Date.now() - started).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);
      const codes = new Set(
        results.map((result) =>
          result.status === 'rejected' ? (result.reason as DataDriverError).code : 'resolved',
        ),
      );
      expect([...codes]).toEqual([ErrorCode.Unavailable]);
      expect(queuedCalls(client)).toEqual([]);
    } finally {
      await proxies.start();
    }
    await backAgain(client);
    const landed: string[] = [];
    for (let n = 0; n < N; n += 1) {
      if ((await presence.get(`flood-${n}`)) !== undefined) landed.push(`flood-${n}`);
    }
    expect(landed).toEqual([]);
    expect(late).toEqual([]);
    await heard.close();
  });

  it('fails a presence scan that loses the cluster midway typed within its deadline', async () => {
    const presence = new RedisPresence({ client, prefix: `${prefix}scan:`, logger: quiet });
    await Promise.all(Array.from({ length: 30 }, (_, n) => presence.set(`srv-${n}`, '1', 600)));
    const entries = presence.scan()[Symbol.asyncIterator]();
    expect((await entries.next()).done).toBe(false);
    await proxies.stop();
    // Past the moment the client notices: its next commands go to its own offline queue.
    await until(() => client.status !== 'ready', 5_000, 'the client losing the cluster');
    let result: { error: unknown; ms: number };
    try {
      const rest = timed(async () => {
        while (!(await entries.next()).done);
      });
      const limit = DEADLINE_MS + SLACK_MS + 1_000;
      const hung = new Promise<{ error: unknown; ms: number }>((resolve) =>
        setTimeout(() => resolve({ error: 'still waiting', ms: limit }), limit),
      );
      result = await Promise.race([rest, hung]);
    } finally {
      await proxies.start();
    }
    expectUnavailable(result, 'the rest of the scan');
    await backAgain(client);
  });

  for (const sharded of [false, true]) {
    it(`delivers again on a subscription made before the outage (${sharded ? 'sharded' : 'classic'})`, async () => {
      const sender = new RedisMessenger({ client, prefix, sharded, logger: quiet });
      const other = clients.add(await proxies.connect({ sharded }));
      const receiver = new RedisMessenger({ client: other, prefix, sharded, logger: quiet });
      const received: unknown[] = [];
      const topic = `CKHandoff_before-${sharded}`;
      await receiver.subscribe(topic, (message) => void received.push(message));
      await proxies.stop();
      await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS));
      await proxies.start();
      await eventually(async () => {
        await sender.publish(topic, { n: received.length });
        await until(() => received.length > 0, 500, 'a delivery');
      });
      expect(received[0]).toMatchObject({ n: 0 });
      await receiver.close();
    });
  }

  it('subscribes on the handoff beat after a subscribe the outage refused', async () => {
    const other = clients.add(await proxies.connect({ sharded: true }));
    const messenger = new RedisMessenger({ client: other, prefix, sharded: true, logger: quiet });
    const presence = new RedisPresence({ client: other, prefix, logger: quiet });
    const handoff = new Handoff({
      jobId: `${prefix}refused`,
      messenger,
      presence,
      logger: quiet,
      timings: { beatSeconds: 0.5, presenceTtlSeconds: 2 },
    });
    const events: string[] = [];
    handoff.on((event) => void events.push(event.type));
    await proxies.stop();
    try {
      handoff.register({
        name: 'PlayerData',
        receiveHandoffRequest: () => undefined,
        receiveHandoffReply: () => undefined,
      });
      handoff.start();
      await until(
        () => events.includes('handoff.subscribe-failed'),
        DEADLINE_MS + SLACK_MS,
        'refusal',
      );
      expect(handoff.subscribed).toBe(false);
    } finally {
      await proxies.start();
    }
    await until(() => handoff.subscribed, 15_000, 'the subscription after the outage');
    const sender = new RedisMessenger({ client, prefix, sharded: true, logger: quiet });
    const replies: string[] = [];
    handoff.register({
      name: 'Other',
      receiveHandoffRequest: () => undefined,
      receiveHandoffReply: (key) => void replies.push(key),
    });
    await eventually(async () => {
      await sender.publish(handoff.topic, { T: 'R', D: 'Other', K: 'k' });
      await until(() => replies.length > 0, 500, 'a reply');
    });
    expect(replies[0]).toBe('k');
    await handoff.destroy();
    await messenger.close();
  });
});
