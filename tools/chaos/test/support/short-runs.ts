/** The short seeded runs `pnpm test` makes: small counts, faults close together. */
import type { RunOptions } from '../../src/run/chaos-run.js';
import { ALL_ACTIONS, CHAOS_TIMINGS, LOAD_TIMINGS } from '../../src/run/presets.js';

export const SHORT_REDIS_RUN: RunOptions = {
  kind: 'redis',
  seed: 3,
  durationMs: 16_000,
  servers: 3,
  players: 10,
  hopsPerSecond: 5,
  liveShare: 0.5,
  actions: ALL_ACTIONS,
  nemesisGapMs: [300, 800],
  outageMs: [600, 1_500],
  timings: CHAOS_TIMINGS,
};

export const SHORT_DYNAMODB_RUN: RunOptions = { ...SHORT_REDIS_RUN, kind: 'dynamodb', seed: 5 };

/** The load run in small: 8 servers on one Redis, hundreds of players, no nemesis. */
export const TINY_LOAD_RUN: RunOptions = {
  ...SHORT_REDIS_RUN,
  seed: 1,
  durationMs: 8_000,
  servers: 8,
  players: 200,
  hopsPerSecond: 40,
  liveShare: 1,
  actions: [],
  timings: LOAD_TIMINGS,
};
