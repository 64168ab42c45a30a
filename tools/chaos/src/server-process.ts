/**
 * One chaos server child, seen from the runner: started with its config, told who joins and
 * leaves over the IPC channel, and killed, paused, resumed or stopped by signal. Its warnings
 * go to the run's log file. A child still running when this process exits is killed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hasExited, stopProcess } from '@datadriver/backends';
import type { ChaosServerConfig, ServerCommand } from './server/server-config.js';

/** dist/chaos-server.js, from this module in src (tests) and bundled in dist alike: both one level below the package. */
const SERVER_SCRIPT = fileURLToPath(new URL('../dist/chaos-server.js', import.meta.url));
/** Generous: several servers start at once on a busy 2-core machine. */
const START_TIMEOUT_MS = 45_000;
/** A clean stop releases every profile within its 10 s deadline. */
const STOP_GRACE_MS = 15_000;

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export class ServerProcess {
  private constructor(private readonly child: ChildProcess) {}

  /** `onExit` is called once when the process ends, for whatever reason. */
  static async start(
    config: ChaosServerConfig,
    log: WriteStream,
    onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): Promise<ServerProcess> {
    const child = fork(SERVER_SCRIPT, [JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // The AWS SDK's notice about Node 20 would fill the log once per server start.
      env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...process.env },
    });
    running.add(child);
    child.once('exit', (code, signal) => {
      running.delete(child);
      onExit(code, signal);
    });
    // Written, not piped: a pipe adds listeners to the shared log for every server started.
    for (const output of [child.stdout, child.stderr]) {
      output?.on('data', (chunk: Buffer) => log.write(chunk));
    }
    // A send to a child that just died fails here; the nemesis knows it killed it.
    child.on('error', () => undefined);
    try {
      await ready(config.jobId, child);
    } catch (error) {
      await new ServerProcess(child).kill();
      throw error;
    }
    return new ServerProcess(child);
  }

  get alive(): boolean {
    return !hasExited(this.child) && this.child.connected;
  }

  /** Sends a join or leave; false when the process is gone. */
  send(command: ServerCommand): boolean {
    if (!this.alive) return false;
    this.child.send(command);
    return true;
  }

  /** SIGKILL, resolved once the process is gone: no release, no last save. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  pause(): void {
    if (!hasExited(this.child)) this.child.kill('SIGSTOP');
  }

  resume(): void {
    if (!hasExited(this.child)) this.child.kill('SIGCONT');
  }

  /** SIGTERM: the server closes its driver (every profile released) and exits. */
  stop(): Promise<void> {
    this.resume();
    return stopProcess(this.child, { graceMs: STOP_GRACE_MS });
  }

  private signal(signal: NodeJS.Signals): Promise<void> {
    if (hasExited(this.child)) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}

function ready(jobId: string, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`chaos server ${jobId} was not ready within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.on('message', (message: { type?: string }) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`chaos server ${jobId} exited (${code ?? signal}) before it was ready`));
    });
  });
}
