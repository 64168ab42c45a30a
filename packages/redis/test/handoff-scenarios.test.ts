/**
 * The testkit's handoff scenarios on a real redis-server. 0.1 real seconds per seed second: a
 * 3 s beat is 300 ms and the 10 s presence TTL 1 s, so an event loop would have to stall 700 ms
 * before a live server read as stopped. DD_SCALE overrides it.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { redisFleetBackend } from './support/fleet-backend.js';

const scale = Number(process.env.DD_SCALE ?? '0.1');

runHandoffScenarios('Redis', () => redisFleetBackend({ scale }), {
  concurrent: true,
});
