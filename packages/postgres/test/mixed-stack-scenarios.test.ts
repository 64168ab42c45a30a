/**
 * The testkit's handoff scenarios on the mixed stack: the PostgreSQL store with Redis messages
 * and presence (the run's redis-server). A file of its own: the scenarios of one file run at
 * once, and two stacks' worth at once on a 2-core machine would skew the waits they time.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { postgresFleetBackend } from './support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runHandoffScenarios(
  'PostgreSQL store + Redis messages and presence',
  () => postgresFleetBackend({ scale, stack: 'mixed' }),
  { concurrent: true },
);
