/**
 * A test's handle on a fixture server forked into a process of its own and driven over IPC:
 * the adapters' cross-process tests fork a script that runs one DataDriver on real backends
 * (each package's `test/fixtures/server.mjs`, which answers with `serveOverIpc`), run
 * operations in it, wait for the events it reports, and kill it. One copy for every adapter:
 * what differs between them is the script and its environment.
 *
 * Wire: the parent sends `{ id, operation, ...args }`; the child answers `{ type: 'reply', id,
 * ok, value | error }`; any other message (`ready`, `event`, `log`, `kick`...) is kept in order.
 */
import { type ChildProcess, fork } from 'node:child_process';

/** A message the server sent of its own accord (not a reply). */
export interface ForkedMessage {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A driver event as it crossed the process boundary. */
export interface ForkedEvent {
  readonly type: string;
  readonly key?: string;
  readonly time: number;
  readonly [field: string]: unknown;
}

export interface ForkedServerOptions {
  /** The fixture script to fork. */
  readonly script: string;
  /** Names the server in errors; also `JOB_ID` in its environment. */
  readonly jobId: string;
  /** Added to this process's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** How long the server may take to send `{ type: 'ready' }` (default 20 s). */
  readonly readyLimitMs?: number;
}

interface Waiter {
  readonly test: (message: ForkedMessage) => boolean;
  done(message: ForkedMessage): void;
  fail(error: Error): void;
}

interface Call {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class ForkedServer {
  /** Every message the server sent, in order. */
  readonly messages: ForkedMessage[] = [];
  /** Resolves once the process is gone, with how it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** When it exited (`Date.now()`), once it has. */
  exitedAt: number | undefined;
  private readonly waiters = new Set<Waiter>();
  private readonly calls = new Map<number, Call>();
  private lastCall = 0;

  /** Forks the server and resolves once it sent `ready`. */
  static async start(options: ForkedServerOptions): Promise<ForkedServer> {
    const child = fork(options.script, [], {
      env: { ...process.env, ...options.env, JOB_ID: options.jobId },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const server = new ForkedServer(options.jobId, child);
    try {
      await server.waitFor(
        (message) => message.type === 'ready',
        options.readyLimitMs ?? 20_000,
        0,
      );
    } catch (error) {
      await server.kill();
      throw error;
    }
    return server;
  }

  constructor(
    readonly jobId: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitedAt = Date.now();
        resolve({ code, signal });
        const gone = new Error(`${jobId} exited (${signal ?? code})`);
        for (const waiter of [...this.waiters]) waiter.fail(gone);
        for (const call of this.calls.values()) call.reject(gone);
        this.calls.clear();
      });
    });
    child.on('message', (message: ForkedMessage) => this.receive(message));
  }

  /** The driver's events so far. */
  get events(): ForkedEvent[] {
    return this.messages.filter((m) => m.type === 'event').map((m) => m.event as ForkedEvent);
  }

  /** The warnings the server logged so far. */
  get warnings(): string[] {
    return this.messages
      .filter((m) => m.type === 'log' && m.level === 'warn')
      .map((m) => String(m.message));
  }

  /** Runs `operation` in the server; resolves with its value. */
  request<T = unknown>(operation: string, args: object = {}): Promise<T> {
    this.lastCall += 1;
    const id = this.lastCall;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, operation, ...args });
    });
  }

  /**
   * The first message at index `from` or later (default: from now on) matching `test`; rejects
   * after `limitMs`, or when the process exits first.
   */
  waitFor(
    test: (message: ForkedMessage) => boolean,
    limitMs: number,
    from = this.messages.length,
  ): Promise<ForkedMessage> {
    const seen = this.messages.slice(from).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.jobId}: no matching message within ${limitMs} ms`));
      }, limitMs);
      const waiter: Waiter = {
        test,
        done: (message) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(message);
        },
        fail: (error) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** The outcome event (`load.loaded` or `load.failed`) of `player`'s load, after message `from`. */
  async settled(
    player: string,
    limitMs: number,
    from = this.messages.length,
  ): Promise<ForkedEvent> {
    const outcome = (m: ForkedMessage) => {
      const event = m.event as ForkedEvent | undefined;
      return (
        m.type === 'event' &&
        event?.key === player &&
        (event.type === 'load.loaded' || event.type === 'load.failed')
      );
    };
    return (await this.waitFor(outcome, limitMs, from)).event as ForkedEvent;
  }

  /** Sends `signal` and resolves once the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }

  /** Asks the server to `close` (it exits after); kills it if that takes over `limitMs`. */
  async stop(limitMs = 5_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), limitMs);
    await this.request('close').catch(() => undefined);
    await this.exited;
    clearTimeout(timer);
  }

  private receive(message: ForkedMessage): void {
    if (message.type === 'reply') {
      const call = this.calls.get(message.id as number);
      this.calls.delete(message.id as number);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(new Error(String(message.error)));
      return;
    }
    this.messages.push(message);
    for (const waiter of [...this.waiters]) if (waiter.test(message)) waiter.done(message);
  }
}

/** Sends `message` to the parent (a no-op when not forked). */
export function sendToParent(message: ForkedMessage): void {
  process.send?.(message);
}

/**
 * The child's half: answers each `{ id, operation, ...args }` from the parent by running
 * `operations[operation](args)`, replying with its value or its error (as `describe` words
 * it). Operations not listed reply with an error.
 */
export function serveOverIpc(
  operations: Readonly<Record<string, (args: Record<string, unknown>) => unknown>>,
  describe: (error: unknown) => string = String,
): void {
  process.on('message', async (request: { id: number; operation: string }) => {
    const { id, operation, ...args } = request;
    try {
      const run = operations[operation];
      if (!run) throw new Error(`unknown operation ${operation}`);
      sendToParent({ type: 'reply', id, ok: true, value: await run(args) });
    } catch (error) {
      sendToParent({ type: 'reply', id, ok: false, error: describe(error) });
    }
  });
}
