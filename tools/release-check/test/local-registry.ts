/**
 * A throwaway npm registry (Verdaccio) on a free loopback port, with no uplinks: it serves only
 * what was published to it, so a project resolves `@datadriver/*` here (a scoped registry
 * setting) and everything else from the registry npm is configured with.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, hasExited, stopProcess } from '@datadriver/backends';

const VERDACCIO = fileURLToPath(new URL('../node_modules/.bin/verdaccio', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`, with the trailing slash npm's settings expect. */
  readonly url: string;
  /** A publishing user's token, for `//127.0.0.1:<port>/:_authToken=`. */
  readonly token: string;
  /** The `.npmrc` lines that send `@datadriver/*` here, with the token to publish. */
  readonly npmrc: string;
  stop(): Promise<void>;
}

/** Starts Verdaccio with its storage and settings under `dir`, and adds a publishing user. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  await writeFile(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      // No uplinks: nothing published here is ever proxied to, or looked up on, npmjs.org.
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const child = spawn(VERDACCIO, ['--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForPing(child, url, () => output);
    const token = await addUser(url);
    const npmrc = `@datadriver:registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`;
    return { url, token, npmrc, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

async function waitForPing(child: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`Verdaccio exited before answering:\n${output()}`);
    const answered = await fetch(`${url}-/ping`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`Verdaccio did not answer within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

/** `npm adduser`'s request: creates the user and answers with its token. */
async function addUser(url: string): Promise<string> {
  const response = await fetch(`${url}-/user/org.couchdb.user:release-check`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release-check', password: 'release-check' }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token)
    throw new Error(`Verdaccio refused the user: ${JSON.stringify(body)}`);
  return body.token;
}
