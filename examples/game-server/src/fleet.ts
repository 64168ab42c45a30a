/**
 * `pnpm fleet`: a local fleet for trying DataDriver by hand: a redis-server on loopback (or
 * REDIS_URL) and three game servers on ports 7001 to 7003. Ctrl-C stops them cleanly: each
 * server releases its profiles, then Redis stops.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis } from '@datadriver/backends';

const serverScript = fileURLToPath(new URL('./server.js', import.meta.url));

export interface Fleet {
  readonly redisUrl: string;
  readonly servers: readonly { readonly jobId: string; readonly url: string }[];
  stop(): Promise<void>;
}

export async function startFleet(count = 3, firstPort = 7001, scale = 1): Promise<Fleet> {
  const redis = await startRedis();
  const children: ChildProcess[] = [];
  const servers = [];
  for (let index = 0; index < count; index += 1) {
    const port = firstPort + index;
    const jobId = `server-${String.fromCharCode(97 + index)}`;
    const child = spawn(
      process.execPath,
      [serverScript, '--port', String(port), '--job', jobId, '--scale', String(scale)],
      {
        env: { ...process.env, REDIS_URL: redis.url },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    await listening(child, jobId);
    servers.push({ jobId, url: `ws://127.0.0.1:${port}` });
  }
  return {
    redisUrl: redis.url,
    servers,
    stop: async () => {
      await Promise.all(children.map(stopChild));
      await redis.stop();
    },
  };
}

/** Resolves once the server prints its listening line, passing its output through. */
function listening(child: ChildProcess, jobId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      if (chunk.toString().includes('listening on')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`${jobId} exited with ${code} before listening`)),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
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
