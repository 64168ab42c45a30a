/**
 * The testkit's restoreAt and erase scenarios on a real PostgreSQL, with versioned stores: the
 * history is stamped by the database's clock, which restoreAt's time is compared against (the
 * same machine's clock here). All PostgreSQL, and mixed with Redis; DD_SCALE overrides the scale.
 */
import { runLifecycleScenarios } from '@datadriver/testkit';
import { postgresFleetBackend } from './support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');
const versions = { keep: 50 };

runLifecycleScenarios('PostgreSQL', () => postgresFleetBackend({ scale, versions }), {
  concurrent: true,
});
runLifecycleScenarios(
  'PostgreSQL store + Redis messages and presence',
  () => postgresFleetBackend({ scale, versions, stack: 'mixed' }),
  { concurrent: true },
);
