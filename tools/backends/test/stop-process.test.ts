import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopProcess } from '../src/index.js';
import { isListening, processesMentioning } from './helpers.js';

// A wrapper (like gcloud) that dies at once on SIGTERM, and a grandchild (like its java) that
// takes a while to shut down and writes a file when it has. `marker` names it in `ps`.
function spawnWrapper(dir: string, marker: string, shutdownSeconds: number) {
  const grandchild =
    `trap 'sleep ${shutdownSeconds}; touch ${join(dir, 'clean')}; exit 0' TERM; ` +
    `: ${marker}; touch ${join(dir, 'ready')}; while true; do sleep 0.05; done`;
  const script = `sh -c "${grandchild}" & wait`;
  return spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
}

/** Until the grandchild has set its trap, a SIGTERM would kill it outright. */
async function started(dir: string): Promise<void> {
  for (let i = 0; i < 500 && !existsSync(join(dir, 'ready')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(existsSync(join(dir, 'ready'))).toBe(true);
}

// A wrapper (like gcloud) whose child's main thread ends at once (pthread_exit), leaving the child
// 'Z' in /proc, while a second thread holds a listening socket for `holdSeconds` more, as java's
// threads do while it shuts down. The child ignores SIGTERM, so only that thread's end ends it.
// The child prints the port.
function spawnZombieLeader(holdSeconds: number) {
  const script = [
    'import ctypes, signal, socket, sys, threading, time',
    'signal.signal(signal.SIGTERM, signal.SIG_IGN)',
    "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()",
    'print(s.getsockname()[1], flush=True)',
    `threading.Thread(target=lambda: (time.sleep(${holdSeconds}), s.close())).start()`,
    'ctypes.CDLL(None).pthread_exit(None)',
  ].join('\n');
  return spawn('sh', ['-c', 'python3 -c "$SCRIPT" & wait'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SCRIPT: script },
  });
}

describe('stopProcess({ group: true })', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("waits for the wrapper's children to shut down cleanly, within the grace period", async () => {
    dir = mkdtempSync(join(tmpdir(), 'stop-group-'));
    const marker = `datadriver-stop-test-${process.pid}-clean`;
    const wrapper = spawnWrapper(dir, marker, 0.3);
    await started(dir);
    await stopProcess(wrapper, { group: true, graceMs: 5000 });
    expect(existsSync(join(dir, 'clean'))).toBe(true);
    expect(processesMentioning(marker)).toEqual([]);
  });

  it('kills children that outlast the grace period, and resolves only once they are gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stop-group-'));
    const marker = `datadriver-stop-test-${process.pid}-slow`;
    const wrapper = spawnWrapper(dir, marker, 30);
    await started(dir);
    const began = Date.now();
    await stopProcess(wrapper, { group: true, graceMs: 300 });
    expect(Date.now() - began).toBeLessThan(5000);
    expect(existsSync(join(dir, 'clean'))).toBe(false);
    expect(processesMentioning(marker)).toEqual([]);
  });

  it("waits for a wrapper's child whose main thread has ended while its other threads run", async () => {
    // Held 3 s: long enough that a loaded machine still checks the port before the thread ends,
    // and that the old check (which returned at once) would still find it listening.
    const child = spawnZombieLeader(3);
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
      child.once('error', reject);
    });
    expect(await isListening('127.0.0.1', port)).toBe(true);
    await stopProcess(child, { group: true, graceMs: 5000 });
    expect(await isListening('127.0.0.1', port)).toBe(false);
  });
});
