/**
 * A game process dies with the runner that started it: `pnpm colyseus` starts them in a
 * process group of their own (a terminal's Ctrl-C reaches only the runner, which stops them in
 * order), so a runner killed with SIGKILL, which no handler sees, used to leave them running
 * with no parent, holding their ports. The IPC channel they were started with closes, and each
 * shuts down as SIGTERM shuts it down.
 */

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '@datadriver/backends';
import { describe, expect, inject, it } from 'vitest';

const PROCESS_MODULE = fileURLToPath(new URL('../dist/colyseus-process.js', import.meta.url));
const GONE_WITHIN_MS = 15_000;

/** Live game processes started on `port` (their command line names it). */
function gameProcessesOn(port: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        if (/^\S+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return (
          command.some((arg) => arg.endsWith('colyseus/dist/server.js')) &&
          command.includes(String(port))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('a game process whose runner dies', () => {
  it('shuts down when the runner is killed with SIGKILL, even in a process group of its own', async () => {
    const port = await freePort();
    const runner = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { ColyseusProcess } from ${JSON.stringify(PROCESS_MODULE)};
         await ColyseusProcess.start({ port: ${port}, redisUrl: process.env.REDIS_URL, detached: true });
         console.log('started');
         setInterval(() => undefined, 60_000);`,
      ],
      {
        env: { ...process.env, REDIS_URL: inject('redisUrl') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        runner.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('started')) resolve();
        });
        runner.once('exit', (code) => reject(new Error(`the runner exited with ${code}`)));
      });
      expect(gameProcessesOn(port)).toHaveLength(1);
      runner.kill('SIGKILL');
      const deadline = Date.now() + GONE_WITHIN_MS;
      while (gameProcessesOn(port).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(gameProcessesOn(port)).toEqual([]);
    } finally {
      runner.kill('SIGKILL');
      for (const pid of gameProcessesOn(port)) process.kill(pid, 'SIGKILL');
    }
  });
});
