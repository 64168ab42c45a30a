import { describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

// The seed's constants a tenth as long: 0.3 s beats, a 1 s presence TTL, 1.5 s lockWait.
const SCALE = 0.1;
const SLACK_MS = 1_000;

describe('game servers on a real redis-server, as separate processes', () => {
  const env = { REDIS_URL: inject('redisUrl') };

  it('a server killed with SIGKILL is taken over after presence expiry, with its last save', async () => {
    const [a, b] = await Promise.all([
      GameServerProcess.start({ jobId: 'crash-a', env, scale: SCALE }),
      GameServerProcess.start({ jobId: 'crash-b', env, scale: SCALE }),
    ]);
    const user = `crash-${Date.now()}`;
    try {
      const onA = await PlayerClient.connect(a.url, user);
      expect((await onA.next('loaded')).type).toBe('loaded');
      await onA.earn(5);
      await new Promise((resolve) => setTimeout(resolve, 30_000 * SCALE + 500)); // one autosave
      await onA.earn(7); // unsaved when A dies
      await a.stop('SIGKILL');
      const killedAt = performance.now();
      const onB = await PlayerClient.connect(b.url, user);
      const loaded = await onB.next('loaded', 30_000);
      const takeoverMs = performance.now() - killedAt;
      expect(loaded).toMatchObject({ type: 'loaded', coins: 5 });
      // Presence expires at most 10 s after A's last beat (which was at most 3 s before the
      // kill), and the silence must last one more beat: between 10 and 16 seed seconds.
      expect(takeoverMs).toBeGreaterThanOrEqual(10_000 * SCALE);
      expect(takeoverMs).toBeLessThanOrEqual(16_000 * SCALE + SLACK_MS);
      await onB.close();
    } finally {
      await a.stop('SIGKILL');
      await b.stop();
    }
  });

  it('SIGTERM releases every profile: the next server loads it without waiting', async () => {
    const [a, b] = await Promise.all([
      GameServerProcess.start({ jobId: 'term-a', env, scale: SCALE }),
      GameServerProcess.start({ jobId: 'term-b', env, scale: SCALE }),
    ]);
    const user = `term-${Date.now()}`;
    try {
      const onA = await PlayerClient.connect(a.url, user);
      await onA.next('loaded');
      await onA.earn(9);
      expect(await a.stop('SIGTERM')).toBe(0);
      expect(a.output()).toContain('released 1, unreleased 0');
      const onB = await PlayerClient.connect(b.url, user);
      const loaded = await onB.next('loaded');
      expect(loaded).toMatchObject({ type: 'loaded', coins: 9 });
      expect(loaded.type === 'loaded' && loaded.waitedMs).toBeLessThan(200);
      await onB.close();
    } finally {
      await b.stop();
    }
  });
});
