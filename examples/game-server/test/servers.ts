import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverScript = fileURLToPath(new URL('../dist/server.js', import.meta.url));

export interface RunningServer {
  readonly jobId: string;
  readonly url: string;
  readonly process: ChildProcess;
  output(): string;
}

/** Starts `dist/server.js` as a real process and resolves once it listens. */
export function startServer(
  jobId: string,
  env: NodeJS.ProcessEnv,
  scale: number,
): Promise<RunningServer> {
  const child = spawn(
    process.execPath,
    [serverScript, '--port', '0', '--job', jobId, '--scale', String(scale)],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  return new Promise((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (ws:\/\/[\d.:]+)\/play/.exec(log);
      if (match) resolve({ jobId, url: match[1]!, process: child, output: () => log });
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`${jobId} exited with ${code}: ${log}`)));
  });
}

export function stopServer(
  server: RunningServer,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) {
    return Promise.resolve(server.process.exitCode);
  }
  return new Promise((resolve) => {
    server.process.once('exit', (code) => resolve(code));
    server.process.kill(signal);
  });
}
