/**
 * `pnpm run fleet` in a terminal, with a player connected to every server, stopped by typing
 * Ctrl-C: each server releases its player's profile while Redis is still up, then Redis stops,
 * and nothing prints an error, pnpm's "[ELIFECYCLE] Command failed." included. Redis runs in a
 * session of its own, so the terminal's SIGINT never reaches it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PlayerClient } from '../src/player-client.js';
import { processesRunning } from './support/processes.js';
import { runInTerminal } from './support/terminal.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** Anything a clean stop must not print. */
const ERROR_LINE = /error|fail|unhandled|ECONN|ELIFECYCLE|unreleased [1-9]|exited unexpectedly/i;

describe('pnpm run fleet in a terminal', () => {
  it('Ctrl-C with connected players: every server releases its profile, then Redis stops, with no error', async () => {
    const env = { ...process.env };
    delete env.REDIS_URL; // the fleet starts its own Redis: its stop order is what is tested
    const fleet = runInTerminal('pnpm run fleet --port 0', { cwd: PACKAGE_DIR, env });
    const players: PlayerClient[] = [];
    try {
      const [, redisPort] = await fleet.waitFor(
        /fleet up \(Redis at redis:\/\/127\.0\.0\.1:(\d+)\)/,
      );
      const urls = [...fleet.output().matchAll(/listening on (ws:\/\/[\d.:]+)\/play/g)].map(
        (match) => match[1]!,
      );
      expect(urls).toHaveLength(3);
      const [redis] = processesRunning(new RegExp(`^redis-server 127\\.0\\.0\\.1:${redisPort}`));
      const [cli] = processesRunning(/^node dist\/fleet-cli\.js/);
      expect(redis, 'the fleet’s redis-server').toBeDefined();
      expect(cli, 'the fleet’s own process').toBeDefined();
      // The terminal's Ctrl-C goes to its foreground group: the fleet's, not Redis's.
      expect(cli!.terminalGroup).toBe(cli!.pgrp);
      expect(redis!.session).not.toBe(cli!.session);
      const servers = processesRunning(/dist\/server\.js .*--job server-[abc]\b/).filter(
        (server) => server.pgrp === cli!.pgrp,
      );
      expect(servers).toHaveLength(3);

      for (const [index, url] of urls.entries()) {
        const player = await PlayerClient.connect(url, `ctrl-c-${index}-${Date.now()}`);
        expect((await player.next('loaded')).type).toBe('loaded');
        await player.earn(index + 1); // unsaved: the release save must write it
        players.push(player);
      }

      fleet.interrupt();
      expect(await fleet.exited()).toBe(0);
      const lines = fleet.output().split('\n');
      const stopped = lines.filter((line) => /^game server server-[abc] stopped:/.test(line));
      expect(stopped.sort(), fleet.output()).toEqual([
        'game server server-a stopped: released 1, unreleased 0',
        'game server server-b stopped: released 1, unreleased 0',
        'game server server-c stopped: released 1, unreleased 0',
      ]);
      expect(lines.filter((line) => ERROR_LINE.test(line))).toEqual([]);
      expect(lines.filter(Boolean).at(-1)).toBe('fleet stopped: every profile released');
      expect(processesRunning(new RegExp(`^redis-server 127\\.0\\.0\\.1:${redisPort}`))).toEqual(
        [],
      );
      const left = new Set(processesRunning(/dist\/server\.js/).map((server) => server.pid));
      expect(servers.filter((server) => left.has(server.pid))).toEqual([]);
    } finally {
      fleet.kill();
      for (const player of players) await player.close();
    }
  });
});
