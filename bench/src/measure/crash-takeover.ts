/**
 * Crash takeover between real game-server processes on all-Redis: a player's server A is
 * SIGKILLed at a random phase of its presence beat and the player reconnects to B at once.
 * Timed from the SIGKILL to the profile loaded on B. The floor the rules allow is presence
 * expiry plus one beat: the key's expiry is read from Redis (PTTL) right after the kill, so
 * the floor of each crash is measured, not assumed. A player whose join is refused after
 * lockWaitSeconds reconnects, as a real client would; such kicks are counted.
 */
import { DEFAULT_TIMINGS } from '@datadriver/core';
import { RedisPresence } from '@datadriver/redis';
import { Redis } from 'ioredis';
import type { Combo } from '../backends.js';
import type { BenchConfig } from '../config.js';
import { inBatches, randomDelay } from '../parallel.js';
import { join, joinUntilLoaded, stopAll, WatchedServer } from '../processes/game-servers.js';
import { quietLogger } from '../quiet-logger.js';

export interface Crash {
  readonly takeoverMs: number;
  /** Presence expiry plus one beat, from the kill (ms). */
  readonly floorMs: number;
  /** From A's last beat (its presence write) to loaded on B. */
  readonly sinceLastBeatMs: number;
  /** Joins refused after lockWaitSeconds before the one that loaded. */
  readonly refusedJoins: number;
}

export async function measureCrashTakeover(combo: Combo, config: BenchConfig): Promise<Crash[]> {
  const tag = `${process.pid}-${Date.now()}`;
  const target = await WatchedServer.start(combo, `bench-crash-${tag}-B`, config.crashScale);
  const redis = new Redis(combo.env.REDIS_URL!);
  // Only for the name of A's presence key, as the game servers' adapter writes it.
  const presence = new RedisPresence({ client: redis, logger: quietLogger });
  try {
    return await inBatches(config.crashes, config.crashesInParallel, (n) =>
      crashOnce(combo, config, redis, presence, target, `${tag}-${n}`),
    );
  } finally {
    redis.disconnect();
    await stopAll([target]);
  }
}

async function crashOnce(
  combo: Combo,
  config: BenchConfig,
  redis: Redis,
  presence: RedisPresence,
  target: WatchedServer,
  tag: string,
): Promise<Crash> {
  const scale = config.crashScale;
  const holder = await WatchedServer.start(combo, `bench-crash-${tag}-A`, scale);
  const user = `crash-${tag}`;
  try {
    await join(holder, user, 30_000);
    await randomDelay(DEFAULT_TIMINGS.beatSeconds * 1000 * scale);
    const killedAt = performance.now();
    await holder.process.stop('SIGKILL');
    const ttlLeft = await redis.pttl(presence.keyOf(holder.process.jobId));
    const expiresAt = performance.now() + ttlLeft;
    const { loaded, loadedAt, refusedJoins } = await joinUntilLoaded(target, user, 60_000 * scale);
    await loaded.client.close();
    const lastBeatAt = expiresAt - DEFAULT_TIMINGS.presenceTtlSeconds * 1000 * scale;
    return {
      takeoverMs: loadedAt - killedAt,
      floorMs: expiresAt + DEFAULT_TIMINGS.beatSeconds * 1000 * scale - killedAt,
      sinceLastBeatMs: loadedAt - lastBeatAt,
      refusedJoins,
    };
  } finally {
    await stopAll([holder]);
  }
}
