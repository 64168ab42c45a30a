/**
 * The testkit's handoff scenarios on the run's Redis Cluster with classic pub/sub (broadcast
 * over the cluster bus), every simulated server on its own Cluster client. Same scale as on one
 * node (test/handoff-scenarios.test.ts); DD_SCALE overrides it. The sharded set has a file of
 * its own: both at once would load the machine beyond what the calibrated bounds allow.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { clusterNodes } from '../support/cluster.js';
import { clusterClientPool, redisFleetBackend } from '../support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

// Every scenario's servers and readers, three at most each, with clients made ahead.
const pool = clusterClientPool(clusterNodes(), { size: 50 });

runHandoffScenarios(
  'Redis Cluster, classic pub/sub',
  () => redisFleetBackend({ scale, cluster: clusterNodes(), pool }),
  { concurrent: true },
);
