/**
 * The testkit's restoreAt and erase scenarios on a real redis-server, with versioned stores:
 * the history is stamped by the Redis clock, which restoreAt's time is compared against (the
 * same machine's clock here). Same scale as the handoff scenarios; DD_SCALE overrides it.
 */
import { runLifecycleScenarios } from '@datadriver/testkit';
import { redisFleetBackend } from './support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runLifecycleScenarios('Redis', () => redisFleetBackend({ scale, versions: { keep: 50 } }), {
  concurrent: true,
});
