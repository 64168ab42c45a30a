/**
 * A game server dies with the process that started it: its parent (the fleet, the Try it
 * page) killed with SIGKILL, which no handler sees, leaves no server running with no parent,
 * holding its port. The IPC channel it was started with closes, and it stops as SIGTERM stops
 * it (every profile released).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { processesRunning } from './support/processes.js';

const PROCESS_MODULE = fileURLToPath(new URL('../dist/game-server-process.js', import.meta.url));
const GONE_WITHIN_MS = 15_000;

describe('a game server whose parent dies', () => {
  it('stops when its parent is killed with SIGKILL', async () => {
    const jobId = `orphan-check-${process.pid}`;
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { GameServerProcess } from ${JSON.stringify(PROCESS_MODULE)};
         await GameServerProcess.start({ jobId: ${JSON.stringify(jobId)}, env: { REDIS_URL: process.env.REDIS_URL } });
         console.log('started');
         setInterval(() => undefined, 60_000);`,
      ],
      {
        env: { ...process.env, REDIS_URL: inject('redisUrl') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const server = new RegExp(`game-server/dist/server\\.js .*--job ${jobId}\\b`);
    try {
      await new Promise<void>((resolve, reject) => {
        parent.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('started')) resolve();
        });
        parent.once('exit', (code) => reject(new Error(`the parent exited with ${code}`)));
      });
      expect(processesRunning(server)).toHaveLength(1);
      parent.kill('SIGKILL');
      const deadline = Date.now() + GONE_WITHIN_MS;
      while (processesRunning(server).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(processesRunning(server)).toEqual([]);
    } finally {
      parent.kill('SIGKILL');
      for (const left of processesRunning(server)) process.kill(left.pid, 'SIGKILL');
    }
  });
});
