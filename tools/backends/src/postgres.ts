import { execFile, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Env, LaunchOptions, PostgresBackend } from './backend.js';
import { installAdvice } from './ci.js';
import { BackendUnavailableError } from './errors.js';
import { withFreePort } from './free-port.js';
import { launchChild } from './launch-child.js';
import type { ManagedChild } from './managed-child.js';
import { findPostgresBin, type ServerUser, serverUser } from './postgres-install.js';

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 30_000;
const INITDB_TIMEOUT_MS = 60_000;
const INSTALL = 'apt-get install -y postgresql';
/** Nice value of the server (lower runs first; 0 is the default). */
const SERVER_PRIORITY = -5;
const run = promisify(execFile);

export interface PostgresLaunchOptions extends LaunchOptions {
  /** Where Debian's majors are looked for (default /usr/lib/postgresql): for tests. */
  readonly debianRoot?: string;
  /**
   * More server settings (`-c name=value`), each also kept across `restart()`: the bench loads
   * `pg_stat_statements` (`shared_preload_libraries`) to count the statements each hop sends.
   * Ignored for a server from DATABASE_URL, which is not ours to configure.
   */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * A throwaway PostgreSQL: `initdb` into a temporary folder, then `postgres` on a free loopback
 * port with its socket in that folder, or the server named by DATABASE_URL. Durability settings
 * are left as they are except `fsync`: a commit is still written to the WAL before it is
 * acknowledged (`synchronous_commit` on), so a killed server loses no acknowledged write; only
 * the flush to disk is skipped, which matters to a machine's crash, not a process's.
 */
export async function startPostgres(options: PostgresLaunchOptions = {}): Promise<PostgresBackend> {
  const env = options.env ?? process.env;
  if (env.DATABASE_URL) return externalPostgres(env.DATABASE_URL);
  const bin = findPostgresBin(env, options.debianRoot);
  if (bin === undefined) {
    throw new BackendUnavailableError(
      'postgres',
      [
        'postgres is unavailable: `initdb` was found neither on PATH nor in /usr/lib/postgresql/<version>/bin.',
        installAdvice(INSTALL, 'DATABASE_URL', env),
      ].join('\n'),
    );
  }
  const user = serverUser();
  const folder = await initCluster(bin, user, env);
  try {
    return await withFreePort(async (port) => {
      const ownSignals = options.ownSignals ?? false;
      const settings = options.settings ?? {};
      const server = new LocalPostgres({ bin, user, folder, port, env, ownSignals, settings });
      await server.restart();
      return server;
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** A fresh cluster in a temporary folder owned by `user`; returns the folder. */
async function initCluster(bin: string, user: ServerUser | undefined, env: Env): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'dd-postgres-'));
  const data = join(folder, 'data');
  mkdirSync(data, { mode: 0o700 });
  if (user) {
    chownSync(folder, user.uid, user.gid);
    chownSync(data, user.uid, user.gid);
  }
  // Trust on loopback and the socket: a throwaway server that only this machine can reach.
  const args = ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '-N'];
  try {
    await run(join(bin, 'initdb'), args, {
      cwd: folder,
      timeout: INITDB_TIMEOUT_MS,
      ...(user && { uid: user.uid, gid: user.gid }),
    });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const output = (error as { stderr?: string }).stderr?.trim();
    throw new BackendUnavailableError(
      'postgres',
      [
        `postgres is unavailable: initdb failed${user ? ` (run as ${user.name})` : ''}.`,
        installAdvice(INSTALL, 'DATABASE_URL', env),
        ...(output ? [`Its output ended with:\n${output.slice(-4000)}`] : []),
      ].join('\n'),
      { cause: error },
    );
  }
  return folder;
}

interface LocalSetup {
  readonly bin: string;
  readonly user: ServerUser | undefined;
  /** The temporary folder: `data/` and the server's socket. */
  readonly folder: string;
  readonly port: number;
  readonly env: Env;
  /** See `LaunchOptions.ownSignals`: out of reach of a terminal's Ctrl-C (the fleet). */
  readonly ownSignals: boolean;
  readonly settings: Readonly<Record<string, string>>;
}

class LocalPostgres implements PostgresBackend {
  readonly name = 'postgres';
  readonly external = false;
  readonly url: string;
  readonly port: number;
  private server: ManagedChild | undefined;
  private stopped = false;

  constructor(private readonly setup: LocalSetup) {
    this.port = setup.port;
    this.url = `postgres://postgres@${HOST}:${setup.port}/postgres`;
  }

  /** Fast shutdown (SIGINT): open sessions are ended, committed data stays on disk. */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.stop();
  }

  /** Starts it again on the same data folder and port; clients holding the URL reconnect. */
  async restart(): Promise<void> {
    await this.kill();
    const { bin, user, folder, port, env, ownSignals, settings } = this.setup;
    const args = [
      ...['-D', join(folder, 'data'), '-k', folder, '-p', String(port)],
      ...['-c', `listen_addresses=${HOST}`, '-c', 'fsync=off', '-c', 'max_connections=500'],
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ];
    this.server = await launchChild({
      backend: 'postgres',
      program: join(bin, 'postgres'),
      child: spawn(join(bin, 'postgres'), args, {
        cwd: folder,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: ownSignals,
        ...(user && { uid: user.uid, gid: user.gid }),
      }),
      ownSignals,
      stopSignal: 'SIGINT',
      probe: () => isReady(bin, port),
      timeoutMs: START_TIMEOUT_MS,
      advice: installAdvice(INSTALL, 'DATABASE_URL', env),
    });
    raisePriority(this.server.child.pid);
  }

  async stop(): Promise<void> {
    await this.kill();
    if (this.stopped) return;
    this.stopped = true;
    rmSync(this.setup.folder, { recursive: true, force: true });
  }
}

/**
 * A little priority over the test workers, inherited by every backend process the server forks:
 * PostgreSQL serves each connection from a process of its own, and on a busy machine the
 * scenarios' real waits would otherwise time those processes' queue for a CPU (one redis-server
 * process meets no such queue). Only root may raise it; anyone else runs it as it is.
 */
function raisePriority(pid: number | undefined): void {
  if (pid === undefined || process.getuid?.() !== 0) return;
  try {
    setPriority(pid, SERVER_PRIORITY);
  } catch {
    // Not permitted here (a container without CAP_SYS_NICE): the server runs at our priority.
  }
}

/** `pg_isready`: true once the server accepts sessions, not merely the TCP connection. */
async function isReady(bin: string, port: number): Promise<boolean> {
  try {
    await run(join(bin, 'pg_isready'), ['-q', '-h', HOST, '-p', String(port), '-t', '1'], {
      timeout: 3_000,
    });
    return true;
  } catch {
    return false;
  }
}

function externalPostgres(url: string): PostgresBackend {
  const refuse = (what: string) => async (): Promise<void> => {
    throw new Error(
      `Cannot ${what} PostgreSQL: it comes from DATABASE_URL and is not ours. Check \`backend.external\` first.`,
    );
  };
  return {
    name: 'postgres',
    external: true,
    url,
    port: Number(new URL(url).port || 5432),
    stop: async () => {},
    kill: refuse('kill'),
    restart: refuse('restart'),
  };
}
