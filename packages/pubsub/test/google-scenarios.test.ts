/**
 * The handoff scenarios on Google's own Pub/Sub emulator (gcloud), with Redis store and
 * presence. It delivers in about 50 ms (the local emulator in 2) and ignores subscription
 * filters: every server receives every message on the topic and drops those not addressed to
 * it. 0.15 real seconds per seed second, so that a reply (two deliveries) lands well within a
 * 0.5 s park (75 ms). DD_SCALE overrides it.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { inject } from 'vitest';
import { pubSubClusterBackend } from './support/cluster-backend.js';
import { onGoogleEmulator } from './support/google-emulator.js';
import { redisStore } from './support/shared-store.js';

const scale = Number(process.env.DD_SCALE ?? 0.15);

onGoogleEmulator((endpoint) =>
  runHandoffScenarios(
    "Google's Pub/Sub emulator, with Redis store and presence",
    () => pubSubClusterBackend(endpoint, redisStore(inject('redisUrl')), { scale }),
    { concurrent: true },
  ),
);
