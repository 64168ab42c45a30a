/**
 * The testkit's restoreAt and erase scenarios on a real redis-server, with versioned stores:
 * the history is stamped by the Redis clock, which restoreAt's time is compared against (the
 * same machine's clock here). Same scale as the handoff scenarios; DD_SCALE overrides it.
 */
import { runLifecycleScenarios } from '@datadriver/testkit';
import { redisClusterBackend } from './support/redis-cluster-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runLifecycleScenarios('Redis', () => redisClusterBackend({ scale, versions: { keep: 50 } }), {
  concurrent: true,
});
