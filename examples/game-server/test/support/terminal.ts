/**
 * A command run in a pseudo-terminal, as a person runs it: util-linux's `script` gives it a
 * terminal, and `interrupt()` types Ctrl-C there, so the terminal's line discipline sends SIGINT
 * to its foreground process group, exactly as a keyboard's Ctrl-C does.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface TerminalRun {
  /** Everything the command printed so far, with the terminal's \r\n made \n. */
  output(): string;
  /** Resolves once the output matches `pattern`, with the match. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Types Ctrl-C. */
  interrupt(): void;
  /** Resolves with the command's exit code once it has ended and all its output is read. */
  exited(): Promise<number | null>;
  /** Kills what is left (after a failed test). */
  kill(): void;
}

export function runInTerminal(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): TerminalRun {
  // -q: no banner, -f: flush at once, -e: exit with the command's code, -c: the command.
  const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString().replaceAll('\r\n', '\n');
    for (const listener of [...listeners]) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exit = new Promise<number | null>((resolve, reject) => {
    // 'close', not 'exit': 'exit' can come before the last of the output has been read (the
    // fleet's last lines, its servers' stop lines among them), and `output()` would lack it.
    child.once('close', (code) => resolve(code));
    child.once('error', (error) =>
      reject(
        new Error(
          `util-linux's \`script\` could not run (${error.message}): install it with \`apt-get install -y bsdutils\``,
        ),
      ),
    );
  });
  exit.catch(() => undefined); // whoever awaits it sees the error
  return {
    output: () => text,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(text);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; the output was:\n${text}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    interrupt: () => {
      child.stdin?.write('\x03');
    },
    exited: () => exit,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}
