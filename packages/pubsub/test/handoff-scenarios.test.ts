import { runHandoffScenarios } from '@datadriver/testkit';
import { inject } from 'vitest';
import { pubSubClusterBackend } from './support/cluster-backend.js';
import { redisStore } from './support/shared-store.js';

/**
 * Real seconds per seed second (DD_SCALE overrides it). 0.07: a crash takeover in about 1 s.
 * Some scenarios need a message to land within one park (0.5 seed s: 35 ms here); Pub/Sub takes
 * 1 to 2 ms on the local emulator, but a loaded 2-core machine needs the margin.
 */
const scale = Number(process.env.DD_SCALE ?? 0.07);

runHandoffScenarios(
  'the Pub/Sub emulator, with Redis store and presence',
  () =>
    pubSubClusterBackend(inject('pubsubEmulatorHost'), redisStore(inject('redisUrl')), { scale }),
  { concurrent: true },
);
