#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startPubSubEmulator } from './server.js';

/** `datadriver-pubsub-emulator [--port N] [--host H]`: serves until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  const emulator = await startPubSubEmulator({ host: values.host, port });
  // Scripts wait for this exact line to learn the port when --port is 0.
  console.log(`listening on ${emulator.endpoint}`);
  const stop = (): void => {
    emulator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
