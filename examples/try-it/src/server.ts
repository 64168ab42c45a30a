/**
 * `node dist/server.js [--port 8080] [--host 127.0.0.1] [--redis redis://127.0.0.1:6379 |
 * --postgres postgres://...]`:
 * serves the "Try it" page, playing each case on the real core over the in-memory backend, or
 * with `--redis` on real game-server processes over that Redis. SIGINT and SIGTERM stop every
 * game server the demo started before it exits.
 */
import { type CliOptions, parseCliOptions } from './cli-options.js';
import { startDemoServer } from './http-server.js';
import { MemoryCaseRunner } from './memory/memory-runner.js';
import { PUBLIC_DIR } from './public-dir.js';
import { RedisCaseRunner } from './redis/redis-runner.js';
import type { CaseRunner } from './stream.js';

function runnerFor(options: CliOptions): Promise<CaseRunner> {
  if (options.databaseUrl !== undefined)
    return RedisCaseRunner.connectPostgres(options.databaseUrl);
  return options.redisUrl === undefined
    ? Promise.resolve(new MemoryCaseRunner())
    : RedisCaseRunner.connect(options.redisUrl);
}

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2), process.env);
  const runner = await runnerFor(options);
  const server = await startDemoServer({
    runner,
    publicDir: PUBLIC_DIR,
    port: options.port,
    host: options.host,
  });
  const backend =
    options.databaseUrl !== undefined
      ? `PostgreSQL at ${options.databaseUrl}, real game servers`
      : options.redisUrl === undefined
        ? 'in-memory backend'
        : `Redis at ${options.redisUrl}, real game servers`;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    // Closing the server ends the streams still playing; then no game server may outlive us.
    void server
      .close()
      .then(() => runner.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('stopping failed:', error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Printed once the handlers are in: a Ctrl-C typed as soon as the address shows (a test's
  // does) stops the demo in order. Before them it would end the process at once, unprinted.
  console.log(`DataDriver "Try it" (${backend}): ${server.url}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
