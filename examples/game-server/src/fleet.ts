/**
 * A local fleet for trying DataDriver by hand (`pnpm fleet`, see fleet-cli.ts): a redis-server
 * (or with `stack: 'postgres'` a PostgreSQL) on loopback, or the given one, and game servers on
 * consecutive ports. It stops in order: every game server releases its profiles and exits, then
 * the backend stops. The backend runs in a session of its own, so a terminal's Ctrl-C reaches
 * the game servers and the fleet, never the backend: the servers' release saves always find it up.
 */
import { type Backend, startPostgres, startRedis } from '@datadriver/backends';
import { GameServerProcess } from './game-server-process.js';

export { botSuggestion } from './bot-suggestion.js';

export interface FleetOptions {
  /** How many game servers (default 3), with jobIds `server-a`, `server-b`, ... */
  readonly count?: number;
  /** The first server's port (default 7001), the next one more; 0 picks free ports. */
  readonly firstPort?: number;
  /** Every server's `--scale` (default 1, the seed's constants). */
  readonly scale?: number;
  /** `postgres`: every port on one PostgreSQL (`--stack postgres`); default Redis. */
  readonly stack?: FleetStack;
  /** Use this Redis instead of starting one (then the fleet never stops it). */
  readonly redisUrl?: string;
  /** With `stack: 'postgres'`: use this PostgreSQL instead of starting one (never stopped). */
  readonly databaseUrl?: string;
  /** Write the servers' output to this process's stdout and stderr. */
  readonly echo?: boolean;
  /** Told what the fleet does as it starts. */
  readonly log?: (message: string) => void;
  /** Told when a server exits without the fleet stopping it (a crash, a kill). */
  readonly onServerExit?: (jobId: string, how: string) => void;
}

export interface FleetStop {
  /** Each server's exit: 0 when it released every profile. */
  readonly exits: ReadonlyMap<string, number | null>;
  /** Every server exited 0 after it was asked to stop. */
  readonly clean: boolean;
}

export type FleetStack = 'redis' | 'postgres';

export interface Fleet {
  readonly stack: FleetStack;
  /** The Redis or PostgreSQL the servers share. */
  readonly backendUrl: string;
  readonly servers: readonly GameServerProcess[];
  /** Stops every game server (each releases its profiles), then the fleet's own backend. */
  stop(): Promise<FleetStop>;
}

/** How long a server may take to release its profiles (its own deadline is 10 s) and exit. */
const SERVER_STOP_MS = 15_000;

export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const { count = 3, firstPort = 7001, scale = 1, stack = 'redis' } = options;
  const given = stack === 'postgres' ? options.databaseUrl : options.redisUrl;
  const backend: Backend | undefined = given ? undefined : await startBackend(stack);
  const backendUrl = given ?? backend!.url;
  const what = stack === 'postgres' ? ['a PostgreSQL', 'PostgreSQL'] : ['a redis-server', 'Redis'];
  options.log?.(
    `${backend ? `started ${what[0]}` : `using the ${what[1]}`} at ${backendUrl}; starting ${count} game servers`,
  );
  const servers: GameServerProcess[] = [];
  let stopping = false;
  const stopAll = async (): Promise<FleetStop> => {
    stopping = true;
    const exits = new Map<string, number | null>();
    await Promise.all(
      servers.map(async (server) => exits.set(server.jobId, await stopServer(server))),
    );
    await backend?.stop();
    return { exits, clean: [...exits.values()].every((code) => code === 0) };
  };
  try {
    for (let index = 0; index < count; index += 1) {
      const server = await GameServerProcess.start({
        jobId: `server-${String.fromCharCode(97 + index)}`,
        port: firstPort === 0 ? 0 : firstPort + index,
        scale,
        ...(stack === 'postgres'
          ? { stack, env: { DATABASE_URL: backendUrl } }
          : { env: { REDIS_URL: backendUrl } }),
        echo: options.echo ?? false,
      });
      servers.push(server);
      server.onExit((code, signal) => {
        if (!stopping) options.onServerExit?.(server.jobId, signal ?? `exit code ${code}`);
      });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { stack, backendUrl, servers, stop: stopAll };
}

/** The fleet's own backend, started afresh even when the environment names one. */
function startBackend(stack: FleetStack): Promise<Backend> {
  const env = { ...process.env, REDIS_URL: undefined, DATABASE_URL: undefined };
  return stack === 'postgres'
    ? startPostgres({ env, ownSignals: true })
    : startRedis({ env, ownSignals: true });
}

/** SIGTERM, then SIGKILL if the server has not exited in time; resolves with its exit code. */
async function stopServer(server: GameServerProcess): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), SERVER_STOP_MS);
  });
  const stopped = server.stop('SIGTERM');
  const result = await Promise.race([stopped, late]);
  clearTimeout(timer);
  if (result !== 'late') return result;
  await server.stop('SIGKILL');
  return null;
}
