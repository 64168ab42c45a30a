/** The game-server processes this test process still has running (Linux's `ps`). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export async function gameServerChildren(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', [
    '-o',
    'pid=,args=',
    '--ppid',
    String(process.pid),
  ]);
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes('game-server/dist/server.js'));
}
