/**
 * The testkit's restoreAt and erase scenarios on the run's Redis Cluster, with versioned
 * stores: each record's versions in its slot, stamped by the clock of the master that owns it.
 */
import { runLifecycleScenarios } from '@datadriver/testkit';
import { clusterNodes } from '../support/cluster.js';
import { redisFleetBackend } from '../support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runLifecycleScenarios(
  'Redis Cluster',
  () => redisFleetBackend({ scale, cluster: clusterNodes(), versions: { keep: 50 } }),
  { concurrent: true },
);
