/**
 * A game server as a child process (`dist/server.js`), for the Try it page's Redis mode, the
 * fleet, the bench and tests: started on a free port (or `port`), its `GET /events` stream
 * followed from the start, its faults injected over HTTP (with `faults: true`), and stopped by
 * a signal. Children still running when this process exits are killed, so none outlives it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { hasExited } from '@datadriver/backends';
import type { DataDriverEvent } from '@datadriver/core';
import { decodeEvent } from './event-wire.js';
import type { FaultRequest } from './fault-request.js';

/** `dist/server.js`, from this module in `src` (tests) and in `dist` alike. */
const SERVER_SCRIPT = fileURLToPath(new URL('../dist/server.js', import.meta.url));

const START_TIMEOUT_MS = 15_000;

export interface GameServerOptions {
  readonly jobId: string;
  /** `--port`: where players connect (a free port when unset). */
  readonly port?: number;
  /** `--scale`: the seed's constants times this (1 when unset). */
  readonly scale?: number;
  /** Added to this process's environment: `REDIS_URL` and friends choose the backends. */
  readonly env?: Readonly<Record<string, string>>;
  /** `--stack postgres`: every port on the PostgreSQL at the env's `DATABASE_URL`. */
  readonly stack?: 'postgres';
  /** `--faults`: serve `POST /faults` (a demo and test tool). */
  readonly faults?: boolean;
  /** `--lock-ttl` and `--lock-skew`, in seconds. */
  readonly lockTtlSeconds?: number;
  readonly lockSkewSeconds?: number;
  /** `--no-handoff` when false: the server runs as an older build, with `handoff: false`. */
  readonly handoff?: boolean;
  /** `--high-res-clock`: event times and waits below a millisecond (the bench). */
  readonly highResClock?: boolean;
  /** `--batch-events`: events shipped in batches once the server is quiet (the bench). */
  readonly batchEvents?: boolean;
  /** `--hand-over-locks`: locks handed over in the release, under the example's signing key. */
  readonly handOverLocks?: boolean;
  /** `--message-limits-times`: the handoff's message budgets times this (the bench). */
  readonly messageLimitsTimes?: number;
  /** `--no-on-message` when false: no `onMessage`, so a load reads no inbox (the bench). */
  readonly onMessage?: boolean;
  /** Also writes the server's output to this process's stdout and stderr (the fleet). */
  readonly echo?: boolean;
}

type EventListener = (event: DataDriverEvent) => void;

/** What `POST /grant` answers once the grant is durable: new, or received before. */
export interface GrantOutcome {
  readonly outcome: 'queued' | 'duplicate';
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function argsOf(options: GameServerOptions): string[] {
  const args = [
    '--port',
    String(options.port ?? 0),
    '--job',
    options.jobId,
    '--scale',
    String(options.scale ?? 1),
  ];
  if (options.stack) args.push('--stack', options.stack);
  if (options.faults) args.push('--faults');
  if (options.handoff === false) args.push('--no-handoff');
  if (options.highResClock) args.push('--high-res-clock');
  if (options.batchEvents) args.push('--batch-events');
  if (options.handOverLocks) args.push('--hand-over-locks');
  if (options.messageLimitsTimes !== undefined)
    args.push('--message-limits-times', String(options.messageLimitsTimes));
  if (options.onMessage === false) args.push('--no-on-message');
  if (options.lockTtlSeconds !== undefined) args.push('--lock-ttl', String(options.lockTtlSeconds));
  if (options.lockSkewSeconds !== undefined)
    args.push('--lock-skew', String(options.lockSkewSeconds));
  return args;
}

/** A child's output so far; the listening line carries its address. */
class Output {
  text = '';
  /** Resolves once both streams ended: every line the child wrote has been read. */
  readonly ended: Promise<void>;

  constructor(child: ChildProcess, echo: boolean) {
    const ends: Array<Promise<void>> = [];
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      const lines = echo ? new LineEcho(to) : undefined;
      from?.on('data', (chunk: Buffer) => {
        this.text += chunk.toString();
        lines?.write(chunk.toString());
      });
      ends.push(new Promise((resolve) => from?.once('end', resolve) ?? resolve()));
      from?.on('end', () => lines?.flush());
    }
    this.ended = Promise.all(ends).then(() => undefined);
  }
}

/** How long a stop waits, after the child exited, for the rest of its output to be read. */
const OUTPUT_END_MS = 2_000;

/**
 * Echoes whole lines only: the fleet's servers write at once (every stop line at Ctrl-C), and a
 * chunk may end mid-line, so echoing chunks as they come would splice two servers' lines.
 */
class LineEcho {
  private pending = '';

  constructor(private readonly to: NodeJS.WriteStream) {}

  write(text: string): void {
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    if (lines.length > 0) this.to.write(`${lines.join('\n')}\n`);
  }

  flush(): void {
    if (this.pending !== '') this.to.write(`${this.pending}\n`);
    this.pending = '';
  }
}

/** Resolves with the server's ws:// address once it prints its listening line. */
function listening(jobId: string, child: ChildProcess, output: Output): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${jobId} did not listen within ${START_TIMEOUT_MS} ms: ${output.text}`));
    }, START_TIMEOUT_MS);
    const check = (): void => {
      const match = /listening on (ws:\/\/[\d.:]+)\/play/.exec(output.text);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${jobId} exited with ${code} before listening: ${output.text}`));
    });
  });
}

/** Sends `signal` and resolves with the exit code (`stopProcess` always starts with SIGTERM). */
function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (hasExited(child)) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

export class GameServerProcess {
  private readonly listeners = new Set<EventListener>();

  private constructor(
    readonly jobId: string,
    /** ws://127.0.0.1:port, where players connect (`/play?user=<id>`). */
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly printed: Output,
  ) {}

  /** Starts a server and resolves once it listens and its event stream is open. */
  static async start(options: GameServerOptions): Promise<GameServerProcess> {
    const child = spawn(process.execPath, [SERVER_SCRIPT, ...argsOf(options)], {
      env: { ...process.env, ...options.env },
      // The channel is the server's lifeline: it closes when this process dies, however it
      // dies (SIGKILL, a crash), and the server then stops (server.ts). Unreferenced, it never
      // keeps this process alive.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.channel?.unref();
    running.add(child);
    child.once('exit', () => running.delete(child));
    const output = new Output(child, options.echo ?? false);
    try {
      const url = await listening(options.jobId, child, output);
      const server = new GameServerProcess(options.jobId, url, child, output);
      await server.followEvents();
      return server;
    } catch (error) {
      await stopChild(child, 'SIGKILL');
      throw error;
    }
  }

  /** http://127.0.0.1:port */
  get httpUrl(): string {
    return this.url.replace(/^ws:/, 'http:');
  }

  /**
   * Calls `listener` once when the process exits, for whatever reason (at once when it already
   * has), so a caller can tell a crash it did not ask for from one it did. Returns the unsubscribe.
   */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): () => void {
    if (hasExited(this.child)) {
      listener(this.child.exitCode, this.child.signalCode);
      return () => undefined;
    }
    this.child.once('exit', listener);
    return () => this.child.off('exit', listener);
  }

  /** Everything the server printed. */
  output(): string {
    return this.printed.text;
  }

  /** Calls `listener` with each event the server reports from now on; returns the unsubscribe. */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Injects a fault (the server must run with `faults: true`). */
  async injectFault(request: FaultRequest): Promise<void> {
    await this.post('/faults', request);
  }

  /**
   * `POST /grant`: gives `player` coins under `receipt`, as a payment webhook would. Resolves
   * once the server's send resolved (the grant durable in the player's inbox) with its outcome;
   * rejects with the server's reason when it refused the grant.
   */
  async grant(player: string, coins: number, receipt: string): Promise<GrantOutcome> {
    return (await this.post('/grant', { player, coins, receipt })) as GrantOutcome;
  }

  /** Lets stalled calls proceed and removes every injected fault. */
  async releaseFaults(): Promise<void> {
    await this.post('/faults/release', {});
  }

  /**
   * Sends `signal` (SIGTERM releases every profile first) and resolves with the exit code,
   * once the output the server wrote before it exited has been read: a child's 'exit' can come
   * before its last lines (the stop line the fleet echoes), and the fleet exits right after.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const code = await stopChild(this.child, signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, OUTPUT_END_MS);
    });
    await Promise.race([this.printed.ended, late]);
    clearTimeout(timer);
    return code;
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(new URL(path, this.httpUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(
        `${this.jobId} refused ${path} (${response.status}): ${await response.text()}`,
      );
    }
    return response.json();
  }

  /** Opens `GET /events`, resolving once the server has sent its first line. */
  private followEvents(): Promise<void> {
    return new Promise((resolve, reject) => {
      const request = get(new URL('/events', this.httpUrl), (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          const messages = buffer.split('\n\n');
          buffer = messages.pop() ?? '';
          for (const message of messages) this.dispatch(message);
          resolve();
        });
        response.on('error', () => undefined); // the server was stopped
      });
      request.on('error', reject);
    });
  }

  private dispatch(message: string): void {
    if (!message.startsWith('data: ')) return; // the ": connected" comment
    const event = decodeEvent(message.slice('data: '.length));
    for (const listener of [...this.listeners]) listener(event);
  }
}

export { DRIVER_NAME } from './driver-name.js';
export type { FaultRequest } from './fault-request.js';
export { HighResScheduler } from './high-res-scheduler.js';
export { messageLimitsTimes } from './message-limits.js';
