import { describeProbe, presenceExpiry, probed } from '@datadriver/testkit/cluster';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';
import { redisProbePorts } from './support/redis-probe-ports.js';

// The seed's constants a tenth as long: 0.3 s beats, a 1 s presence TTL, 1.5 s lockWait.
const SCALE = 0.1;

/** This process's own connections to the servers' Redis (their default prefix). */
const ports = redisProbePorts(inject('redisUrl'));

afterAll(() => ports.close());

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
      // A's last beat expires on Redis's clock: up to a TTL after the kill, or sooner when a late
      // beat timer put the kill more than a beat after that beat.
      const expiresAt = await presenceExpiry(ports.presence, a.jobId);
      const { value: loaded, figures } = await probed(ports, async () => {
        const onB = await PlayerClient.connect(b.url, user);
        return { message: await onB.next('loaded', 30_000), at: performance.now(), onB };
      });
      expect(loaded.message).toMatchObject({ type: 'loaded', coins: 5 });
      // Two empty reads a beat apart, the first no sooner than the expiry; and the seed's 16 s
      // after the crash at most (expiry within 10 s, the beat, the retry spacing), plus the
      // slack a probe measured beside the wait.
      expect(loaded.at).toBeGreaterThanOrEqual(expiresAt + 3_000 * SCALE - 5);
      const takeoverMs = loaded.at - killedAt;
      const bound = 16_000 * SCALE + figures.slackMs;
      expect(takeoverMs, describeProbe('the takeover', figures)).toBeLessThanOrEqual(bound);
      await loaded.onB.close();
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
