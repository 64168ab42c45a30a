/**
 * An interactive bash on a real pseudo-terminal (util-linux `script`), driven as a user at a
 * terminal drives it: lines typed in, and Ctrl-C as the byte the terminal turns into a SIGINT
 * to its foreground process group.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { stopProcess } from '@datadriver/backends';

/** How long `waitFor` waits before it fails, naming what never showed. */
export const WAIT_MS = 60_000;

export class Terminal {
  private text = '';
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(cwd: string, env: NodeJS.ProcessEnv = process.env) {
    // -e: script's exit is bash's; -f: every byte at once; the typescript goes nowhere.
    this.child = spawn(
      'script',
      ['-q', '-f', '-e', '-c', 'bash --norc --noprofile -i', '/dev/null'],
      {
        cwd,
        env: { ...env, PS1: '$ ', TERM: 'dumb' },
        detached: true,
      },
    );
    const append = (chunk: Buffer): void => {
      this.text += chunk.toString();
      for (const wake of [...this.waiters]) wake();
    };
    this.child.stdout.on('data', append);
    this.child.stderr.on('data', append);
  }

  /** Everything the terminal showed so far. */
  output(): string {
    return this.text;
  }

  type(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Ctrl-C: the terminal sends SIGINT to its foreground process group. */
  interrupt(): void {
    this.child.stdin.write('\x03');
  }

  /** Resolves once the output after `from` matches `pattern`. */
  waitFor(pattern: RegExp, from = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the terminal never showed ${pattern}:\n${this.text}`));
      }, WAIT_MS);
      const check = (): void => {
        if (!pattern.test(this.text.slice(from))) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    await stopProcess(this.child, { group: true, graceMs: 1_000 });
  }
}
