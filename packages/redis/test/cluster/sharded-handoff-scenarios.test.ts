/**
 * The testkit's handoff scenarios on the run's Redis Cluster with sharded pub/sub: each
 * server's handoff channel lives on the shard that owns its slot. DD_SCALE overrides the scale.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { clusterNodes } from '../support/cluster.js';
import { clusterClientPool, redisFleetBackend } from '../support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

// Every scenario's servers and readers, three at most each, with clients made ahead.
const pool = clusterClientPool(clusterNodes(), { sharded: true, size: 50 });

runHandoffScenarios(
  'Redis Cluster, sharded pub/sub',
  () => redisFleetBackend({ scale, cluster: clusterNodes(), sharded: true, pool }),
  { concurrent: true },
);
