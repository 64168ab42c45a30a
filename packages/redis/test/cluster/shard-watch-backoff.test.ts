/**
 * The sharded subscription check on a real Redis Cluster when renewing cannot help: the
 * messenger's user loses the right to SSUBSCRIBE (an ACL change on every node) and its
 * subscriber connections are killed, so the channel goes silent and every renewal is refused
 * with NOPERM while its probes still publish. The watch must back off and say so once, not
 * log a line every cycle for as long as it lasts.
 */
import { recordingLogger } from '@datadriver/testkit/cluster';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMessenger } from '../../src/index.js';
import { MAX_RECHECK_MS } from '../../src/shard-watch.js';
import { connectCluster } from '../support/cluster.js';
import { Clients, uniquePrefix } from '../support/redis.js';

const clients = new Clients();
const user = `dd-watch-${process.pid}`;
const password = `pw-${process.pid}`;
let admin: Cluster;

/** Runs `args` on every node of the cluster (ACLs are per node). */
async function onEveryNode(...args: string[]): Promise<void> {
  await Promise.all(admin.nodes('all').map((node) => node.call(args[0]!, ...args.slice(1))));
}

async function until(condition: () => boolean, limitMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  admin = clients.add(await connectCluster());
  await onEveryNode('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '&*', '+@all');
});
afterAll(async () => {
  await clients.quitAll();
  const cleanup = await connectCluster();
  admin = cleanup;
  await onEveryNode('ACL', 'DELUSER', user);
  cleanup.disconnect();
});

describe('the sharded subscription check when renewing cannot help', () => {
  it('backs off to 10 s between checks, with one info line and one warning', async () => {
    const client = clients.add(
      await connectCluster(undefined, {
        sharded: true,
        redisOptions: { username: user, password },
      }),
    );
    const logger = recordingLogger();
    const prefix = uniquePrefix('watch');
    const messenger = new RedisMessenger({ client, prefix, sharded: true, logger });
    const received: unknown[] = [];
    await messenger.subscribe('t', (message) => void received.push(message));
    await messenger.publish('t', { n: 1 });
    await until(() => received.length > 0, 5_000, 'a delivery before the change');

    await onEveryNode('ACL', 'SETUSER', user, '-ssubscribe');
    await onEveryNode('CLIENT', 'KILL', 'USER', user, 'TYPE', 'pubsub');
    const lost = (line: { message: string }) => /stopped delivering/.test(line.message);
    // Found by an alarm, or by the periodic check (every 10 s) at the latest.
    await until(() => logger.lines.some(lost), 15_000, 'the silent channel noticed');
    const noticed = Date.now();
    const renewals = () =>
      logger.lines.filter((line) => /resubscribing failed/.test(line.message)).length;
    await until(() => Date.now() - noticed > 12_000, 15_000, 'twelve seconds');
    await messenger.close();
    console.info(`${renewals()} renewals in 12 s`);

    // A renewal at once, then one a probe's 0.5 s after waits of 0.25, 0.5, 1, 2 and 4 s: six
    // in 12 s (the seventh at 18.75 s), against one every 0.75 s (some 16) without backing off.
    expect(renewals()).toBeGreaterThanOrEqual(4);
    expect(renewals()).toBeLessThanOrEqual(7);
    const told = logger.lines.filter((line) => lost(line) || line.level === 'warn');
    expect(told.map((line) => line.level)).toEqual(['info', 'warn']);
    expect(told[1]?.message).toContain(`${MAX_RECHECK_MS / 1000} s`);
  }, 60_000);
});
