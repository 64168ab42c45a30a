/**
 * `--hand-over-locks`: two game server processes on one Redis, each with the driver's
 * `handOverLocks` and its handoff signing. A player who moves from A to B loads on B with the
 * lock A's release wrote for it (`handed`), and A's release names B; without the flag, the
 * release clears the lock and B takes it free (`unlocked`).
 */
import type { DataDriverEvent } from '@datadriver/core';
import { describe, expect, inject, it } from 'vitest';
import { parseArgs } from '../src/args.js';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

async function hop(handOverLocks: boolean) {
  const run = `hand-over-${handOverLocks}-${Date.now()}`;
  const start = (name: string) =>
    GameServerProcess.start({
      jobId: `${run}-${name}`,
      env: { REDIS_URL: inject('redisUrl') },
      handOverLocks,
    });
  const [a, b] = await Promise.all([start('a'), start('b')]);
  const releasedOnA = new Promise<DataDriverEvent>((resolve) => {
    a.onEvent((event) => {
      if (event.type === 'profile.released') resolve(event);
    });
  });
  const loadedOnB = new Promise<DataDriverEvent>((resolve) => {
    b.onEvent((event) => {
      if (event.type === 'load.loaded') resolve(event);
    });
  });
  try {
    const player = `${run}-player`;
    const first = await PlayerClient.connect(a.url, player);
    await first.next('loaded');
    // The player joins B while A still holds the profile: A is asked to hand it over.
    const second = await PlayerClient.connect(b.url, player);
    await second.next('loaded');
    const loaded = await loadedOnB;
    await Promise.all([first.close(), second.close()]);
    return { loaded, releasedOnA: await releasedOnA };
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

describe('--hand-over-locks', () => {
  it("with it on both servers, B loads the lock A's release wrote for it, and A's release names B", async () => {
    const { loaded, releasedOnA } = await hop(true);
    expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'handed' });
    expect(releasedOnA).toMatchObject({ handedTo: expect.stringMatching(/-b$/) });
  });

  it('without it, the release clears the lock and B takes it free', async () => {
    const { loaded, releasedOnA } = await hop(false);
    expect(loaded).toMatchObject({ type: 'load.loaded', reason: 'unlocked' });
    expect(releasedOnA).not.toHaveProperty('handedTo');
  });

  it('the flag is off unless given', () => {
    expect(parseArgs([], {}).handOverLocks).toBe(false);
    expect(parseArgs(['--hand-over-locks'], {}).handOverLocks).toBe(true);
  });
});
