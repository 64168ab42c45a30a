/**
 * A TCP relay between a player and a game server that can go silent without closing: after
 * `freeze()` nothing passes either way and nobody sees a FIN or RST. That is a stale player
 * connection, the case the seed's live hand-over exists for (the player moved on; their old
 * connection is still open on the holder).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface FreezableRelay {
  /** ws://127.0.0.1:port, to connect players through. */
  readonly url: string;
  freeze(): void;
  close(): Promise<void>;
}

export async function startRelay(targetUrl: string): Promise<FreezableRelay> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on('error', () => undefined);
      from.on('close', () => {
        if (!frozen) to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `ws://127.0.0.1:${port}`,
    freeze: () => {
      frozen = true;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
