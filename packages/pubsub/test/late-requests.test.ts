/**
 * Pub/Sub delivers at least once, late and out of order. The messenger adds no
 * deduplication: the lock token in each request makes a copy or a latecomer harmless. These
 * cases send real copies through Pub/Sub, on top of the scenarios' injected ones.
 */
import type { DataDriverEvent } from '@datadriver/core';
import { requestMessage, topicOf } from '@datadriver/core/rules';
import { Cluster, mark, settled } from '@datadriver/testkit/cluster';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { pubSubClusterBackend } from './support/cluster-backend.js';
import { memoryStore } from './support/shared-store.js';

describe('duplicate and late handoff requests over Pub/Sub', () => {
  let cluster: Cluster;

  beforeEach(async () => {
    const backend = await pubSubClusterBackend(inject('pubsubEmulatorHost'), memoryStore(), {
      scale: 0.05,
    });
    cluster = new Cluster(backend);
  });
  afterEach(() => cluster.close());

  /** Each request that server `label` received for p1 with `token`, after event `from`. */
  const received = (label: string, token: string, from: number) =>
    cluster.events.slice(from).filter(
      (
        event,
      ): event is Extract<DataDriverEvent, { type: 'handoff.request.received' }> & {
        server: string;
        order: number;
      } =>
        event.server === label &&
        event.type === 'handoff.request.received' &&
        event.token === token,
    );

  it('a request delivered twice kicks the session once', async () => {
    const a = await cluster.server('A');
    const b = await cluster.server('B');
    const onA = mark(cluster);
    a.join('p1');
    await settled(cluster, 'A', 'p1', onA);
    const token = a.profile('p1')!.lockToken;
    const { messenger: outsider } = await cluster.backend.connect('outsider');
    const from = mark(cluster);
    const request = requestMessage(cluster.driverName, 'p1', b.jobId, token);
    await Promise.all([
      outsider.publish(topicOf(a.jobId), request),
      outsider.publish(topicOf(a.jobId), request),
    ]);
    await cluster.until(
      () => received('A', token, from).length === 2,
      cluster.ms(20),
      'both copies',
    );
    expect(a.host.kicks.map((kick) => kick.message)).toEqual(['You joined another server.']);
    const releases = cluster.events.filter(
      (event) => event.server === 'A' && event.type === 'profile.released',
    );
    expect(releases).toHaveLength(1);
  });

  it('an old request arriving twice after the player came back ends nothing', async () => {
    const a = await cluster.server('A');
    const b = await cluster.server('B');
    const onA = mark(cluster);
    a.join('p1');
    await settled(cluster, 'A', 'p1', onA);
    const oldToken = a.profile('p1')!.lockToken;
    const onB = mark(cluster);
    b.join('p1'); // handed over from A to B
    expect(await settled(cluster, 'B', 'p1', onB)).toMatchObject({ type: 'load.loaded' });
    b.leave('p1');
    await cluster.until(
      () => cluster.find('B', 'profile.released', 'p1') !== undefined,
      cluster.ms(20),
      'the release on B',
    );
    const backOnA = mark(cluster);
    a.join('p1'); // a newer session on A, under a new token
    await settled(cluster, 'A', 'p1', backOnA);
    const newer = a.profile('p1')!;
    const kicks = a.host.kicks.length;
    const { messenger: outsider } = await cluster.backend.connect('outsider');
    const from = mark(cluster);
    const late = requestMessage(cluster.driverName, 'p1', b.jobId, oldToken);
    await outsider.publish(topicOf(a.jobId), late);
    await outsider.publish(topicOf(a.jobId), late);
    await cluster.until(
      () => received('A', oldToken, from).length === 2,
      cluster.ms(20),
      'both copies',
    );
    expect(received('A', oldToken, from).map((event) => event.action)).toEqual(['reply', 'reply']);
    expect(newer.active).toBe(true);
    expect(a.host.kicks).toHaveLength(kicks);
    expect(await cluster.holder('p1')).toBe('A');
  });
});
