/**
 * A game server started by a parent (the fleet, the Try it page) is stopped by that parent,
 * never by the terminal's Ctrl-C directly: the Ctrl-C reaches the parent as well, which says it
 * is stopping and then stops its servers, so no server's stop line comes before the parent's
 * (it did once, printed on the terminal's "^C", in a loaded run of `pnpm run fleet`).
 */
import { describe, expect, inject, it } from 'vitest';
import { GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';
import { processesRunning } from './support/processes.js';

describe('a game server started by a parent', () => {
  it('keeps serving through a SIGINT, and a SIGTERM then releases its profiles', async () => {
    const jobId = `parent-stop-${process.pid}-${Date.now()}`;
    const server = await GameServerProcess.start({ jobId, env: { REDIS_URL: inject('redisUrl') } });
    const pattern = new RegExp(`game-server/dist/server\\.js .*--job ${jobId}\\b`);
    try {
      const [running] = processesRunning(pattern);
      expect(running, 'the server process').toBeDefined();
      const player = await PlayerClient.connect(server.url, `parent-stop-${Date.now()}`);
      expect((await player.next('loaded')).type).toBe('loaded');
      process.kill(running!.pid, 'SIGINT');
      // Still serving: a second player loads on it after the SIGINT was handled.
      const second = await PlayerClient.connect(server.url, `parent-stop-2-${Date.now()}`);
      expect((await second.next('loaded')).type).toBe('loaded');
      expect(server.output()).not.toMatch(/stopped:/);
      expect(await server.stop('SIGTERM')).toBe(0);
      expect(server.output()).toContain(`game server ${jobId} stopped: released 2, unreleased 0`);
      await player.close();
      await second.close();
    } finally {
      for (const left of processesRunning(pattern)) process.kill(left.pid, 'SIGKILL');
    }
  });
});
