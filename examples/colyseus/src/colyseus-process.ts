/**
 * A game process (`dist/server.js`) as a child, for the runner and the tests: started on a port
 * and resolved once it prints its listening line (which carries its Colyseus process id), and
 * stopped by a signal. Children still running when this process exits are killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hasExited } from '@datadriver/backends';

const SERVER_SCRIPT = fileURLToPath(new URL('../dist/server.js', import.meta.url));
const START_TIMEOUT_MS = 20_000;

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ColyseusProcessOptions {
  readonly port: number;
  readonly redisUrl: string;
  /** The seed's constants times this (1 when unset). */
  readonly scale?: number;
  /** `--public-address`: where clients' sockets go (a proxy in front of it, say). */
  readonly publicAddress?: string;
  /** Also writes the process's output to this one's (the runner). */
  readonly echo?: boolean;
  /** Its own process group, so a terminal's Ctrl-C reaches only the runner, which stops it. */
  readonly detached?: boolean;
}

export class ColyseusProcess {
  private constructor(
    /** The Colyseus process id: this server's jobId. */
    readonly processId: string,
    /** ws://127.0.0.1:port, where clients matchmake. */
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly printed: { text: string },
  ) {}

  static async start(options: ColyseusProcessOptions): Promise<ColyseusProcess> {
    const args = [
      SERVER_SCRIPT,
      '--port',
      String(options.port),
      '--scale',
      String(options.scale ?? 1),
    ];
    if (options.publicAddress) args.push('--public-address', options.publicAddress);
    const child = spawn(process.execPath, args, {
      env: { ...process.env, REDIS_URL: options.redisUrl },
      // The channel is the process's lifeline: it closes when this process dies, however it
      // dies (SIGKILL, a crash), and the game process then shuts down (server.ts), even in a
      // process group of its own. Unreferenced, it never keeps this process alive.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: options.detached ?? false,
    });
    child.channel?.unref();
    running.add(child);
    child.once('exit', () => running.delete(child));
    const printed = { text: '' };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        printed.text += chunk.toString();
        if (options.echo) (stream === child.stdout ? process.stdout : process.stderr).write(chunk);
      });
    }
    try {
      const [processId, url] = await listening(child, printed);
      return new ColyseusProcess(processId, url, child, printed);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  }

  /** Everything the process printed. */
  output(): string {
    return this.printed.text;
  }

  /** Resolves once what the process printed after the first `from` characters matches `pattern`. */
  waitForOutput(pattern: RegExp, from = 0): Promise<void> {
    const { child, printed } = this;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the game process never printed ${pattern}: ${printed.text}`));
      }, START_TIMEOUT_MS);
      const check = (): void => {
        if (!pattern.test(printed.text.slice(from))) return;
        done();
        resolve();
      };
      const done = (): void => {
        clearTimeout(timer);
        child.stdout?.off('data', check);
      };
      child.stdout?.on('data', check);
      check();
    });
  }

  /** Sends `signal` (SIGTERM shuts down gracefully) and resolves with the exit code. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const { child } = this;
    if (hasExited(child)) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    });
  }
}

function listening(child: ChildProcess, printed: { text: string }): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no listening line within ${START_TIMEOUT_MS} ms: ${printed.text}`));
    }, START_TIMEOUT_MS);
    const check = (): void => {
      const match = /colyseus (\S+) listening on (ws:\/\/[\d.:]+)/.exec(printed.text);
      if (!match) return;
      clearTimeout(timer);
      resolve([match[1]!, match[2]!]);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the game process exited with ${code} before listening: ${printed.text}`));
    });
  });
}
