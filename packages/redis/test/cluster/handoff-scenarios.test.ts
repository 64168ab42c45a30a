/**
 * The testkit's handoff scenarios on the run's Redis Cluster, every simulated server on its own
 * Cluster client: with classic pub/sub (broadcast over the cluster bus) and with sharded pub/sub
 * (each server's channel on the shard that owns its slot), both sets at once. Same scale as on
 * one node (test/handoff-scenarios.test.ts); DD_SCALE overrides it.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { clusterNodes } from '../support/cluster.js';
import { redisFleetBackend } from '../support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

for (const sharded of [false, true]) {
  runHandoffScenarios(
    `Redis Cluster, ${sharded ? 'sharded' : 'classic'} pub/sub`,
    () => redisFleetBackend({ scale, cluster: clusterNodes(), sharded }),
    { concurrent: true },
  );
}
