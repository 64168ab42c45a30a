/**
 * `node dist/server.js [--port 8080] [--host 127.0.0.1]`: serves the "Try it" page, playing
 * each case on the real core over the in-memory backend.
 */
import { parseCliOptions } from './cli-options.js';
import { startDemoServer } from './http-server.js';
import { MemoryCaseRunner } from './memory/memory-runner.js';
import { PUBLIC_DIR } from './public-dir.js';

async function main(): Promise<void> {
  const { port, host } = parseCliOptions(process.argv.slice(2), process.env);
  const server = await startDemoServer({
    runner: new MemoryCaseRunner(),
    publicDir: PUBLIC_DIR,
    port,
    host,
  });
  console.log(`DataDriver "Try it" (in-memory backend): ${server.url}`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
