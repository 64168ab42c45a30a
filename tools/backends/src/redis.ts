import { spawn } from 'node:child_process';
import type { Env, LaunchOptions, RedisBackend } from './backend.js';
import { installAdvice } from './ci.js';
import { withFreePort } from './free-port.js';
import { launchChild } from './launch-child.js';
import type { ManagedChild } from './managed-child.js';
import { pingRedis } from './probes.js';

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 10_000;
const INSTALL = 'apt-get install -y redis-server';

/**
 * A throwaway redis-server on a free loopback port, or the server named by REDIS_URL. Ours runs
 * as a plain child (not daemonized) so it cannot outlive the test run.
 */
export async function startRedis(options: LaunchOptions = {}): Promise<RedisBackend> {
  const env = options.env ?? process.env;
  if (env.REDIS_URL) return externalRedis(env.REDIS_URL);
  const launch = { env, ownSignals: options.ownSignals ?? false, dataDir: options.dataDir };
  return withFreePort(
    async (port) => new LocalRedis(port, launch, await launchRedis(port, launch)),
  );
}

interface RedisLaunch {
  readonly env: Env;
  readonly ownSignals: boolean;
  readonly dataDir: string | undefined;
}

function launchRedis(port: number, launch: RedisLaunch): Promise<ManagedChild> {
  return launchRedisServer({
    port,
    env: launch.env,
    backend: 'redis',
    envVar: 'REDIS_URL',
    args: [],
    ownSignals: launch.ownSignals,
    dataDir: launch.dataDir,
  });
}

export interface RedisServerLaunch {
  readonly port: number;
  readonly env: Env;
  /** The backend's name in errors, and the variable that would name a running one instead. */
  readonly backend: string;
  readonly envVar: string;
  /** More `redis-server` options. */
  readonly args: readonly string[];
  /** See `LaunchOptions.ownSignals`. */
  readonly ownSignals?: boolean;
  /** See `LaunchOptions.dataDir`. */
  readonly dataDir?: string | undefined;
}

/**
 * One loopback redis-server child, resolved once it answers PING: without persistence, or
 * with an fsynced append-only file in `dataDir`.
 */
export function launchRedisServer(launch: RedisServerLaunch): Promise<ManagedChild> {
  const { port, env } = launch;
  const ownSignals = launch.ownSignals ?? false;
  // No persistence by default: tests must not leave dump.rdb / appendonly files in whatever
  // cwd we run in. With a data directory, every write is on disk before Redis answers it.
  const persistence = launch.dataDir
    ? ['--dir', launch.dataDir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--save', '', '--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', HOST, ...persistence];
  return launchChild({
    backend: launch.backend,
    program: 'redis-server',
    child: spawn('redis-server', [...args, ...launch.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownSignals,
    }),
    ownSignals,
    probe: () => pingRedis(HOST, port),
    timeoutMs: START_TIMEOUT_MS,
    advice: installAdvice(INSTALL, launch.envVar, env),
  });
}

class LocalRedis implements RedisBackend {
  readonly name = 'redis';
  readonly external = false;
  readonly url: string;

  constructor(
    readonly port: number,
    private readonly launch: RedisLaunch,
    private server: ManagedChild | undefined,
  ) {
    this.url = `redis://${HOST}:${port}`;
  }

  async kill(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.stop();
  }

  /**
   * Same port, so clients holding the old URL reconnect to the new server; with `dataDir`,
   * the same data.
   */
  async restart(): Promise<void> {
    await this.kill();
    this.server = await launchRedis(this.port, this.launch);
  }

  stop(): Promise<void> {
    return this.kill();
  }
}

function externalRedis(url: string): RedisBackend {
  const refuse = (what: string) => async (): Promise<void> => {
    throw new Error(
      `Cannot ${what} Redis: it comes from REDIS_URL (${url}) and is not ours. Check \`backend.external\` first.`,
    );
  };
  return {
    name: 'redis',
    external: true,
    url,
    port: Number(new URL(url).port || 6379),
    stop: async () => {},
    kill: refuse('kill'),
    restart: refuse('restart'),
  };
}
