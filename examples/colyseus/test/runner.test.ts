/**
 * `pnpm colyseus` (dist/play.js) as a person runs it: its story on its own redis-server, then a
 * Ctrl-C (SIGINT to its process group, as a terminal sends it) stops the game processes first,
 * each releasing its profiles on the still-running Redis, and Redis last.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from '@datadriver/backends';
import { describe, expect, it } from 'vitest';
import { joinRoom } from '../src/player.js';

const RUNNER = fileURLToPath(new URL('../dist/play.js', import.meta.url));

/** True when nothing listens on `port` of loopback now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose next one is free too: the runner puts its two processes on both. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65_535 && (await bindable(port + 1))) return port;
  }
}

describe('pnpm colyseus', () => {
  it('plays the hop, the reconnect and the crash, and Ctrl-C stops the games before Redis', async () => {
    const port = await freePortPair();
    const env = { ...process.env };
    delete env.REDIS_URL; // its own redis-server, through tools/backends
    const runner = spawn(process.execPath, [RUNNER, '--scale', '0.1', '--port', String(port)], {
      env,
      detached: true, // its own process group, like a terminal's foreground job
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    runner.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    runner.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // 'close', not 'exit': the output is read in full only once the pipes closed.
    const exited = new Promise<number | null>((resolve) => runner.once('close', resolve));
    try {
      await expect
        .poll(() => output, { timeout: 45_000, interval: 100 })
        .toContain('Ctrl-C stops them');
      expect(output).toContain('the room on A closed with 4100: "You joined another server."');
      expect(output).toMatch(/loaded on B with 15 coins/);
      expect(output).toMatch(/reconnected with the same profile: 26 coins/);
      // B held the seat before the client came back: no refusal printed for a reconnect that works.
      expect(output).toMatch(/player-\d+ dropped: seat held 20 s[\s\S]*reconnected with the same/);
      // Only for that drop: the kicked connection on A holds no seat, and says none.
      expect(output.match(/dropped: seat held/g)).toHaveLength(1);
      expect(output).not.toContain('reconnection token invalid or expired');
      expect(output).toMatch(
        /taken over [\d.]+ s after the crash \(default timings: 10 to 15 s, times [\d.]+\), with 15 coins/,
      );
      // A player still in a room when Ctrl-C comes: their release needs Redis up.
      await joinRoom(`ws://127.0.0.1:${port}`, `ctrl-c-${process.pid}`);
      process.kill(-runner.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      const stopping = output.slice(output.indexOf('stopping the game processes'));
      expect(stopping).toMatch(
        /stopped: released 1, unreleased 0[\s\S]*stopped: released 0, unreleased 0|stopped: released 0, unreleased 0[\s\S]*stopped: released 1, unreleased 0/,
      );
      expect(stopping.trimEnd().endsWith('stopped')).toBe(true);
    } finally {
      if (runner.exitCode === null) process.kill(-runner.pid!, 'SIGKILL');
    }
  });
});
