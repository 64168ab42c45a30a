/**
 * A local fleet for trying DataDriver by hand (`pnpm fleet`, see fleet-cli.ts): a redis-server
 * on loopback (or the given Redis) and game servers on consecutive ports. It stops in order:
 * every game server releases its profiles and exits, then Redis stops. Redis runs in a
 * session of its own, so a terminal's Ctrl-C reaches the game servers and the fleet, never
 * Redis: the servers' release saves always find it up.
 */
import { type RedisBackend, startRedis } from '@datadriver/backends';
import { GameServerProcess } from './game-server-process.js';

export { botSuggestion } from './bot-suggestion.js';

export interface FleetOptions {
  /** How many game servers (default 3), with jobIds `server-a`, `server-b`, ... */
  readonly count?: number;
  /** The first server's port (default 7001), the next one more; 0 picks free ports. */
  readonly firstPort?: number;
  /** Every server's `--scale` (default 1, the seed's constants). */
  readonly scale?: number;
  /** Use this Redis instead of starting one (then the fleet never stops it). */
  readonly redisUrl?: string;
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

export interface Fleet {
  readonly redisUrl: string;
  readonly servers: readonly GameServerProcess[];
  /** Stops every game server (each releases its profiles), then the fleet's own Redis. */
  stop(): Promise<FleetStop>;
}

/** How long a server may take to release its profiles (its own deadline is 10 s) and exit. */
const SERVER_STOP_MS = 15_000;

export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  const { count = 3, firstPort = 7001, scale = 1 } = options;
  const redis: RedisBackend | undefined = options.redisUrl
    ? undefined
    : await startRedis({ env: { ...process.env, REDIS_URL: undefined }, ownSignals: true });
  const redisUrl = options.redisUrl ?? redis!.url;
  options.log?.(
    `${redis ? 'started a redis-server' : 'using the Redis'} at ${redisUrl}; starting ${count} game servers`,
  );
  const servers: GameServerProcess[] = [];
  let stopping = false;
  const stopAll = async (): Promise<FleetStop> => {
    stopping = true;
    const exits = new Map<string, number | null>();
    await Promise.all(
      servers.map(async (server) => exits.set(server.jobId, await stopServer(server))),
    );
    await redis?.stop();
    return { exits, clean: [...exits.values()].every((code) => code === 0) };
  };
  try {
    for (let index = 0; index < count; index += 1) {
      const server = await GameServerProcess.start({
        jobId: `server-${String.fromCharCode(97 + index)}`,
        port: firstPort === 0 ? 0 : firstPort + index,
        scale,
        env: { REDIS_URL: redisUrl },
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
  return { redisUrl, servers, stop: stopAll };
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
