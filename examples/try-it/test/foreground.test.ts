/**
 * `pnpm demo 2>&1 | tee log` (and `| tee log`), then Ctrl-C at a real terminal: the interrupt
 * reaches the demo server, which stops, its last lines reach the log (tee is still there to
 * write them), and nothing is left running. tools/foreground.sh is what `pnpm demo`, `pnpm
 * fleet` and `pnpm colyseus` run their process through; `sh -c` stands in for pnpm, which runs a
 * script the same way. Before the fix the server kept running with no parent, holding its port.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Terminal, WAIT_MS } from './support/terminal.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = fileURLToPath(new URL('../dist/server.js', import.meta.url));
const GONE_WITHIN_MS = 10_000;
// Two terminal waits and the wait for the processes to end: on a loaded machine the server's
// start alone can take more than vitest's default 5 s, and a wait that fails should say what
// never showed rather than be cut short by the test's own timeout.
const TEST_TIMEOUT_MS = 2 * WAIT_MS + GONE_WITHIN_MS + 5_000;

/** The pids of live processes whose environment carries `mark`. */
function marked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (/^\S+ \(.*\) [ZX]/.test(stat)) return false; // ended, not yet reaped
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark);
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
}

async function goneWithin(mark: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = marked(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = marked(mark);
  }
  return left;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('tools/foreground.sh: the demo piped through tee, then Ctrl-C at a terminal', () => {
  it.each([
    ['stdout and stderr piped', '2>&1 | tee'],
    ['stdout piped', '| tee'],
  ])(
    '%s: the server gets the interrupt, stops, its last line reaches the log, and nothing is left running',
    async (_name, pipe) => {
      const dir = await mkdtemp(join(tmpdir(), 'dd-foreground-'));
      dirs.push(dir);
      const log = join(dir, 'log');
      const mark = `DD_FOREGROUND_TEST=${process.pid}-${dirs.length}`;
      const terminal = new Terminal(ROOT);
      try {
        terminal.type(
          `${mark} sh -c 'tools/foreground.sh node ${SERVER} --port 0' ${pipe} ${log}; echo "pipeline ended"`,
        );
        await terminal.waitFor(/"Try it" \(in-memory backend\): http/);
        expect(marked(mark)).not.toEqual([]);
        const before = terminal.output().length;
        terminal.interrupt();
        await terminal.waitFor(/pipeline ended/, before);
        expect(await goneWithin(mark, GONE_WITHIN_MS)).toEqual([]);
        expect(await readFile(log, 'utf8')).toMatch(
          /"Try it" \(in-memory backend\)[\s\S]*SIGINT: stopping/,
        );
      } finally {
        await terminal.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
