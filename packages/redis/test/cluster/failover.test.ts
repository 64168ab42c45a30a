/**
 * Failovers on a Redis Cluster of this file's own (three masters, three replicas): a manual
 * failover (`CLUSTER FAILOVER` on a replica) and its fail-back, and a SIGKILL of a master.
 * Classic and sharded pub/sub deliver again, and a fleet of game servers keeps saving, hands
 * players over and takes over from a crashed server, with no acknowledged save lost and
 * hand-overs back to milliseconds once the new master serves.
 *
 * Each case runs once; `DD_FAILOVER_RUNS=n` (`pnpm --filter @datadriver/redis failover`) runs
 * them n times in a row on the same cluster, to show they are stable.
 */
import { DataDriverError, ErrorCode } from '@datadriver/core';
import {
  type Cluster,
  crashTtl,
  expectWait,
  mark,
  settled,
  waitOf,
  withCluster,
} from '@datadriver/testkit/cluster';
import { describe, expect, it } from 'vitest';
import { RedisMessenger } from '../../src/index.js';
import { channelOf, recordKey } from '../../src/keys.js';
import { connectCluster } from '../support/cluster.js';
import { redisFleetBackend } from '../support/fleet-backend.js';
import { keySlot } from '../support/key-slot.js';
import {
  deliveredWithin,
  type Move,
  moveMaster,
  ownCluster,
  shardSubscribers,
} from '../support/own-cluster.js';
import { quiet, uniquePrefix } from '../support/redis.js';

const RUNS = Number(process.env.DD_FAILOVER_RUNS ?? '1');
const scale = Number(process.env.DD_SCALE ?? '0.1');

const own = ownCluster();

/** Messengers of both kinds on topics whose channels one master serves, each delivering. */
async function listeners(run: number) {
  const all = makeListeners(run);
  for (const each of await all) {
    await each.subscribed;
    await deliveredWithin(each.publish, each.received, 2_000, 'before');
  }
  return all;
}

async function makeListeners(run: number) {
  const client = own.clients.add(await connectCluster(own.cluster.nodes, { sharded: true }));
  const prefix = uniquePrefix(`failover-${run}`);
  const topic = 'CKHandoff_moving';
  return [false, true].map((sharded) => {
    const messenger = new RedisMessenger({ client, prefix, sharded, logger: quiet });
    const received: unknown[] = [];
    const publish = () => messenger.publish(topic, { n: received.length });
    const subscribed = messenger.subscribe(topic, (message) => void received.push(message));
    return { sharded, messenger, received, publish, subscribed, channel: channelOf(prefix, topic) };
  });
}

/** Moves the master of the channels' slot, then waits for each messenger to deliver again. */
async function moveAndDeliver(
  all: Awaited<ReturnType<typeof makeListeners>>,
  move: Move,
  leg: string,
): Promise<void> {
  const { to } = await moveMaster(own.cluster, move, keySlot(all[0]!.channel));
  for (const { sharded, received, publish, channel } of all) {
    const kind = sharded ? 'sharded' : 'classic';
    const ms = await deliveredWithin(publish, received, 5_000, `${kind} after ${move} ${leg}`);
    console.info(`${kind} pub/sub delivered again ${ms} ms after the ${move} ${leg} settled`);
    if (sharded) expect(await shardSubscribers(to, channel)).toBe(1);
  }
}

describe.each(Array.from({ length: RUNS }, (_, run) => run + 1))('failover run %i', (run) => {
  it('classic and sharded pub/sub deliver again after a failover of their master and a fail-back', async () => {
    const all = await listeners(run);
    await moveAndDeliver(all, 'failover', 'there');
    await moveAndDeliver(all, 'failover', 'back');
    await Promise.all(all.map(({ messenger }) => messenger.close()));
  }, 60_000);

  it('classic and sharded pub/sub deliver again after a SIGKILL of their master', async () => {
    const all = await listeners(run);
    await moveAndDeliver(all, 'kill', 'of the master');
    await Promise.all(all.map(({ messenger }) => messenger.close()));
  }, 60_000);

  for (const move of ['failover', 'kill'] as const) {
    it(`a fleet keeps saving, hands over in milliseconds and takes over a crash through a ${move}, no acknowledged save lost`, async () => {
      const backend = await redisFleetBackend({
        scale,
        cluster: own.cluster.nodes,
        sharded: true,
        // A master SIGKILLed takes what it acknowledged and had not yet replicated with it
        // (durability.test.ts): no-loss through a kill needs each save on the replica too.
        store: move === 'kill' ? { waitForReplicas: 1 } : {},
      });
      await withCluster(backend, (cluster) => fleetThrough(cluster, move));
    }, 90_000);
  }
});

/**
 * Servers A and B; twelve players on A saving without pause while the master serving A's
 * handoff channel (and some of their records) moves; then a hand-over to B and a crash of A.
 */
async function fleetThrough(cluster: Cluster, move: Move): Promise<void> {
  const a = await cluster.server('A');
  const b = await cluster.server('B', { lockWaitSeconds: 20 });
  const players = Array.from({ length: 12 }, (_, n) => `p${n}`);
  const onA = mark(cluster);
  for (const player of players) a.join(player);
  for (const player of players) await settled(cluster, 'A', player, onA);
  // The master serving A's channel: the hand-over after the move needs A's subscription.
  const slot = keySlot(channelOf('', a.handoff!.topic));
  const moving = await own.cluster.masterOf(slot);
  const servedThere = await Promise.all(
    players.map(async (player) => {
      const name = recordKey('', `${cluster.driverName}/${player}`);
      return (await own.cluster.masterOf(keySlot(name))) === moving;
    }),
  );
  expect(servedThere.some(Boolean)).toBe(true);

  const acknowledged = new Map<string, number>();
  const failures: unknown[] = [];
  let saving = true;
  const savers = players.map(async (player) => {
    const profile = a.profile(player)!;
    while (saving) {
      profile.data.coins += 1;
      const coins = profile.data.coins;
      try {
        await profile.save();
        acknowledged.set(player, coins);
      } catch (error) {
        failures.push(error);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const { to } = await moveMaster(own.cluster, move, slot);
  expect(to).not.toBe(moving);
  await new Promise((resolve) => setTimeout(resolve, 300));
  saving = false;
  await Promise.all(savers);
  const total = [...acknowledged.values()].reduce((sum, coins) => sum + coins, 0);
  console.info(`${move}: ${total} saves acknowledged, ${failures.length} failed`);
  // Every failed save was an outage to the caller, never a backend failure.
  for (const failure of failures) {
    expect(DataDriverError.isInstance(failure), String(failure)).toBe(true);
    expect((failure as DataDriverError).code, String(failure)).toBe(ErrorCode.Unavailable);
  }
  // No acknowledged save lost: each record holds at least its last acknowledged save.
  for (const player of players) {
    const stored = (await cluster.record(player))?.data.coins ?? 0;
    expect(stored, player).toBeGreaterThanOrEqual(acknowledged.get(player) ?? 0);
  }

  // A hand-over to B: A's subscription, on the moved shard, answers in milliseconds again.
  const [first, second] = players as [string, string];
  a.profile(first)!.data.coins += 100; // unsaved: must travel with the hand-over
  const latest = a.profile(first)!.data.coins;
  const onB = mark(cluster);
  b.join(first);
  const handed = await settled(cluster, 'B', first, onB);
  expect(handed.type).toBe('load.loaded');
  expect(cluster.find('A', 'handoff.request.received', first)).toMatchObject({ action: 'kick' });
  expect(b.profile(first)?.data.coins).toBe(latest);
  expectWait(cluster, waitOf(handed), { exactMs: 340, atMostMs: 1500 });

  // A crashes right after a beat, the worst phase; B takes the next player over.
  const saved = (await cluster.record(second))?.data.coins;
  await a.handoff!.beat();
  a.crash();
  const crashedAt = cluster.time.now();
  const onCrash = mark(cluster);
  b.join(second);
  const taken = await settled(cluster, 'B', second, onCrash);
  expect(taken).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
  expect(b.profile(second)?.data.coins).toBe(saved);
  expectWait(
    cluster,
    { from: crashedAt, to: taken.time },
    { exactMs: 13_270, atMostMs: 16_000, fixed: crashTtl(cluster, b, onCrash, crashedAt) },
  );
}
