import { startTcpProxy } from '@datadriver/backends';
import { describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

// The seed's constants a tenth as long: the live hand-over's 1.5 s is 150 ms here.
const SCALE = 0.1;
const SLACK_MS = 1_000;

describe("the seed's stale connection, between game-server processes on a real redis-server", () => {
  it('a player whose old connection went silent is handed over in about one save, with the coins earned there', async () => {
    const env = { REDIS_URL: inject('redisUrl') };
    const [a, b] = await Promise.all([
      GameServerProcess.start({ jobId: 'stale-a', env, scale: SCALE }),
      GameServerProcess.start({ jobId: 'stale-b', env, scale: SCALE }),
    ]);
    const user = `stale-${Date.now()}`;
    const toA = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(a.url).port) });
    try {
      const onA = await PlayerClient.connect(`ws://127.0.0.1:${toA.port}`, user);
      expect((await onA.next('loaded')).type).toBe('loaded');
      await onA.earn(7); // unsaved on A: the hand-over must carry it
      toA.freeze(); // the network dropped: no FIN, no RST, A still sees an open connection
      const onB = await PlayerClient.connect(b.url, user);
      const loaded = await onB.next('loaded', 30_000);
      expect(loaded).toMatchObject({ type: 'loaded', coins: 7 });
      expect(loaded.type === 'loaded' && loaded.waitedMs).toBeLessThanOrEqual(
        1_500 * SCALE + SLACK_MS,
      );
      await onB.close();
    } finally {
      await toA.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
