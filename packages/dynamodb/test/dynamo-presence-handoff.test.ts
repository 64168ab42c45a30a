/**
 * The handoff's presence rows on the stack with no Redis (DynamoStore, DynamoPresence, Pub/Sub
 * messages), at the driver's default settings: a crashed server is taken over, never before
 * its TTL plus one beat, and the joining player is never kicked for it; a live one is never
 * read as stopped. Each server has its own DynamoPresence, so each judges expiry on its own
 * clock.
 */
import { Handoff } from '@datadriver/core';
import { defaultLockWaitSeconds } from '@datadriver/core/rules';
import {
  type Cluster,
  expectOutcome,
  expectWait,
  mark,
  type ServerOptions,
  settled,
  waitOf,
  withCluster,
} from '@datadriver/testkit/cluster';
import { describe, expect, inject, it } from 'vitest';
import { DynamoPresence } from '../src/index.js';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';
import { presenceTable } from './support/presence-table.js';
import { scenarioTable } from './support/scenario-table.js';
import { dynamoPresence, pubSubMessenger } from './support/stack-ports.js';

const scale = Number(process.env.DD_SCALE ?? 0.1);
const table = scenarioTable('presence-handoff', { clients: 4 });
const beats = presenceTable('presence-beats');

function dynamoBackend(atScale = scale) {
  return dynamoClusterBackend({
    direct: table.direct,
    pool: table.pool,
    tableName: table.tableName,
    scale: atScale,
    presence: dynamoPresence(beats.tableName),
    messenger: pubSubMessenger(inject('pubsubEmulatorHost')),
  });
}

/** Unscaled seconds, to one decimal, for the log. */
const unscaled = (cluster: Cluster, ms: number) => (ms / cluster.ms(1)).toFixed(1);

/** A on p1 with 5 saved coins; A beats once more and crashes. Returns when the beat was sent. */
async function crashedHolder(cluster: Cluster, joiner: ServerOptions = {}) {
  const a = await cluster.server('A');
  const b = await cluster.server('B', joiner);
  const onA = mark(cluster);
  a.join('p1');
  await settled(cluster, 'A', 'p1', onA);
  const profile = a.profile('p1')!;
  profile.data.coins = 5;
  await cluster.time.until(profile.save());
  const beatSent = cluster.time.now();
  await cluster.time.until(a.handoff!.beat());
  a.crash();
  return { a, b, beatSent };
}

describe('handoff with DynamoPresence, at default settings', () => {
  it("waits 25 s by default: the rules' 15 s plus one presence TTL", () => {
    const presence = new DynamoPresence({ client: table.direct, tableName: beats.tableName });
    expect(defaultLockWaitSeconds(presence, Handoff.PRESENCE_TTL_SECONDS)).toBe(25);
  });

  it("takes a crashed server's lock without kicking the player, and not before its TTL plus one beat", () =>
    withCluster(dynamoBackend(), async (cluster) => {
      const { b, beatSent } = await crashedHolder(cluster);
      const crashedAt = cluster.time.now();
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expectOutcome(cluster, loaded, { type: 'load.loaded', reason: 'stolen' });
      expect(b.host.kicks).toEqual([]);
      expect(b.profile('p1')?.data.coins).toBe(5);
      expect(await cluster.holder('p1')).toBe('B');
      const waited = loaded.time - crashedAt;
      console.info(
        `DynamoPresence takeover ${waited} ms after the crash = ${unscaled(cluster, waited)} unscaled s`,
      );
      // B first sees A's last beat after the crash; a TTL of that, then a second empty read
      // one beat later: at least 13 unscaled seconds after the beat was sent.
      expectWait(cluster, { from: beatSent, to: loaded.time }, { atLeastMs: 13_000 });
      // The first sighting comes at B's first wake: one park (0.5 s) and a load after the
      // join, so a TTL from it, a beat, a park and the load come to at most 16.5 s; and well
      // inside the 25 s default wait.
      expectWait(cluster, { from: crashedAt, to: loaded.time }, { atMostMs: 16_500 });
    }));

  it('counts the TTL from its first sighting: a join long after a crash still waits it out, unkicked', () =>
    withCluster(dynamoBackend(), async (cluster) => {
      const { b } = await crashedHolder(cluster);
      await cluster.time.pass(cluster.ms(20)); // A's beat expired long ago, in real time
      const from = mark(cluster);
      const joinedAt = cluster.time.now();
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expectOutcome(cluster, loaded, { type: 'load.loaded', reason: 'stolen' });
      expect(b.host.kicks).toEqual([]);
      const waited = loaded.time - joinedAt;
      console.info(
        `DynamoPresence late takeover ${unscaled(cluster, waited)} unscaled s after the join`,
      );
      expectWait(cluster, waitOf(loaded), { atLeastMs: 13_000, atMostMs: 16_500 });
    }));

  it('never reads a live server as stopped, however long the join waits', () =>
    withCluster(dynamoBackend(), async (cluster) => {
      const a = await cluster.server('A');
      const b = await cluster.server('B');
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      // A stays up and beats, but cannot save: its lock never comes free.
      a.store.faults.inject({
        kind: 'stall',
        operation: 'update',
        times: Number.POSITIVE_INFINITY,
      });
      const from = mark(cluster);
      b.join('p1');
      const failed = await settled(cluster, 'B', 'p1', from);
      expect(failed.type).toBe('load.failed'); // after the default 25 unscaled s, 2.5 TTLs
      expect(failed.waitedMs).toBeGreaterThanOrEqual(cluster.ms(25) - 5);
      const answers = cluster.events
        .slice(from)
        .flatMap((event) =>
          event.server === 'B' && event.type === 'presence.read' ? [event.answer] : [],
        );
      expect(answers.length).toBeGreaterThan(5);
      expect(new Set(answers)).toEqual(new Set(['alive']));
      expect(await cluster.holder('p1')).toBe('A');
    }));

  it('at the default handoff timings and the driver built without lockWaitSeconds, a crash is taken over and the player never kicked', async () => {
    await withCluster(dynamoBackend(1), async (cluster) => {
      const { b, beatSent } = await crashedHolder(cluster, { lockWaitSeconds: 'unset' });
      const crashedAt = cluster.time.now();
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from, 40);
      expectOutcome(cluster, loaded, { type: 'load.loaded', reason: 'stolen' });
      expect(b.host.kicks).toEqual([]);
      expect(b.profile('p1')?.data.coins).toBe(5);
      console.info(
        `DynamoPresence at default settings: taken over ${loaded.time - crashedAt} ms after the crash, no kick`,
      );
      expectWait(cluster, { from: beatSent, to: loaded.time }, { atLeastMs: 13_000 });
      expectWait(cluster, { from: crashedAt, to: loaded.time }, { atMostMs: 16_500 });
    });
  }, 60_000);
});
