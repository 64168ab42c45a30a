/**
 * The handoff's presence rows with DynamoPresence in place of an in-memory presence: a crashed
 * server is taken over, never before its TTL plus one beat, and a live one is never read as
 * stopped. Each server has its own DynamoPresence, so each judges expiry on its own clock.
 */
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mark, settled, withCluster } from '@datadriver/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, PRESENCE_EXPIRY_ATTRIBUTE } from '../src/index.js';
import { ClientPool } from './support/client-pool.js';
import { freshTable, makeClient, uniqueTableName } from './support/dynamo-client.js';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';

const scale = Number(process.env.DD_SCALE ?? 0.05);

let direct: DynamoDBClient;
let records: Awaited<ReturnType<typeof freshTable>>;
let presenceTable: string;
let pool: ClientPool;

beforeAll(async () => {
  direct = makeClient(inject('dynamoEndpoint'));
  records = await freshTable(direct, 'presence-handoff');
  presenceTable = uniqueTableName('presence-beats');
  await ensureTable({
    client: direct,
    tableName: presenceTable,
    timeToLiveAttribute: PRESENCE_EXPIRY_ATTRIBUTE,
  });
  pool = new ClientPool(inject('dynamoEndpoint'), records.tableName);
  await pool.fill(2);
});

afterAll(async () => {
  pool?.destroy();
  await records?.drop();
  await direct?.send(new DeleteTableCommand({ TableName: presenceTable }));
  direct?.destroy();
});

function dynamoBackend() {
  return dynamoClusterBackend({
    direct,
    pool,
    tableName: records.tableName,
    scale,
    presenceTable,
  });
}

describe('handoff with DynamoPresence', () => {
  it("takes a crashed server's lock, and not before its TTL plus one beat", () =>
    withCluster(dynamoBackend(), async (cluster) => {
      // A first sighting adds up to one TTL (see the README): give the join room for it.
      const a = await cluster.server('A', { lockWaitSeconds: 30 });
      const b = await cluster.server('B', { lockWaitSeconds: 30 });
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      const profile = a.profile('p1')!;
      profile.data.coins = 5;
      await cluster.time.until(profile.save());
      await cluster.time.until(a.handoff!.beat());
      a.crash();
      const crashedAt = cluster.time.now();
      const from = mark(cluster);
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
      expect(b.profile('p1')?.data.coins).toBe(5);
      expect(await cluster.holder('p1')).toBe('B');
      // B first sees A's last beat after the crash; a TTL of that, then a second empty read
      // one beat later: at least 13 seed seconds, at most about 18.
      const waited = loaded.time - crashedAt;
      console.info(
        `DynamoPresence takeover ${waited} ms = ${(waited / cluster.ms(1)).toFixed(1)} seed s`,
      );
      expect(waited).toBeGreaterThanOrEqual(cluster.ms(13) - 5);
      expect(waited).toBeLessThanOrEqual(cluster.ms(18) + cluster.slackMs);
    }));

  it('counts the TTL from its first sighting: a join long after a crash still waits it out', () =>
    withCluster(dynamoBackend(), async (cluster) => {
      const a = await cluster.server('A', { lockWaitSeconds: 30 });
      const b = await cluster.server('B', { lockWaitSeconds: 30 });
      const onA = mark(cluster);
      a.join('p1');
      await settled(cluster, 'A', 'p1', onA);
      a.crash();
      await cluster.time.pass(cluster.ms(20)); // A's beat expired long ago, in real time
      const from = mark(cluster);
      const joinedAt = cluster.time.now();
      b.join('p1');
      const loaded = await settled(cluster, 'B', 'p1', from);
      expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'stolen' });
      const waited = loaded.time - joinedAt;
      console.info(
        `DynamoPresence late takeover ${(waited / cluster.ms(1)).toFixed(1)} seed s after the join`,
      );
      expect(waited).toBeGreaterThanOrEqual(cluster.ms(13) - 5);
      expect(waited).toBeLessThanOrEqual(cluster.ms(18) + cluster.slackMs);
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
      expect(failed.type).toBe('load.failed'); // after 15 seed seconds, more than the 10 s TTL
      const answers = cluster.events
        .slice(from)
        .flatMap((event) =>
          event.server === 'B' && event.type === 'presence.read' ? [event.answer] : [],
        );
      expect(answers.length).toBeGreaterThan(3);
      expect(new Set(answers)).toEqual(new Set(['alive']));
      expect(await cluster.holder('p1')).toBe('A');
    }));
});
