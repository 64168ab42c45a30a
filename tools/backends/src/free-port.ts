import { createServer } from 'node:net';

/** Asks the kernel for an unused loopback port, so parallel runs never fight over fixed ports. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

const PORT_CLASH = /address already in use|EADDRINUSE/i;

/**
 * Runs `start` on a fresh free port, retrying on a new port when another process grabbed it
 * between `freePort()` and the child's bind (a real race when many test workers start at once).
 */
export async function withFreePort<T>(
  start: (port: number) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      const clash = error instanceof Error && PORT_CLASH.test(error.message);
      if (!clash || attempt >= attempts) throw error;
    }
  }
}
