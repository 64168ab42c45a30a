/**
 * The testkit's handoff scenarios on a real PostgreSQL, all three ports on it. 0.1 real
 * seconds per seed second, as on the other stacks; DD_SCALE overrides it.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { postgresFleetBackend } from './support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runHandoffScenarios('PostgreSQL', () => postgresFleetBackend({ scale }), { concurrent: true });
