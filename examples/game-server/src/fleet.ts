/**
 * `pnpm fleet`: a local fleet for trying DataDriver by hand: a redis-server on loopback (or
 * REDIS_URL) and three game servers on ports 7001 to 7003. Ctrl-C stops them cleanly: each
 * server releases its profiles, then Redis stops.
 */
import { fileURLToPath } from 'node:url';
import { startRedis } from '@datadriver/backends';
import { GameServerProcess } from './game-server-process.js';

export interface Fleet {
  readonly redisUrl: string;
  readonly servers: readonly { readonly jobId: string; readonly url: string }[];
  stop(): Promise<void>;
}

export async function startFleet(count = 3, firstPort = 7001, scale = 1): Promise<Fleet> {
  const redis = await startRedis();
  const servers: GameServerProcess[] = [];
  for (let index = 0; index < count; index += 1) {
    servers.push(
      await GameServerProcess.start({
        jobId: `server-${String.fromCharCode(97 + index)}`,
        port: firstPort + index,
        scale,
        env: { REDIS_URL: redis.url },
        echo: true,
      }),
    );
  }
  return {
    redisUrl: redis.url,
    servers,
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await redis.stop();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fleet = await startFleet();
  console.log(`\nfleet up (Redis at ${fleet.redisUrl}). Play with the bot in another terminal:`);
  console.log(`  pnpm bot --servers ${fleet.servers.map((s) => s.url).join(',')} --hops 10`);
  console.log('Ctrl-C stops the fleet.');
  const stop = async () => {
    await fleet.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
