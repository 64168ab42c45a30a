/**
 * "Redis down as the server starts" (docs/guide/two-servers.md): a load retries the store (0.5 s doubling to 2 s) until
 * lockWaitSeconds, then fails with Data.Unavailable; with the recommended ioredis options each
 * failed call takes about a reconnection attempt, so the whole wait ends soon after the bound.
 */
import { freePort } from '@datadriver/backends';
import { RECOMMENDED_REDIS_OPTIONS } from '@datadriver/redis';
import { describe, expect, it } from 'vitest';
import { loadWithRedisDown } from '../src/redis-down.js';

const LOCK_WAIT_SECONDS = 2;
/** One failing call past the deadline: a reconnection attempt (ioredis waits up to 2 s). */
const LAST_CALL_MS = 2_500;
const SLACK_MS = 1_000;

describe('a load with Redis down at start', () => {
  it('retries the store until lockWaitSeconds, then fails with Data.Unavailable', async () => {
    const result = await loadWithRedisDown(
      'recommended',
      RECOMMENDED_REDIS_OPTIONS,
      LOCK_WAIT_SECONDS,
      await freePort(),
    );
    expect(result.code).toBe('Data.Unavailable');
    expect(result.storeCalls).toBeGreaterThanOrEqual(3); // 0, 0.5, 1.5 s at least
    expect(result.ms).toBeGreaterThanOrEqual(LOCK_WAIT_SECONDS * 1000);
    expect(result.ms).toBeLessThanOrEqual(LOCK_WAIT_SECONDS * 1000 + LAST_CALL_MS + SLACK_MS);
  });
});
