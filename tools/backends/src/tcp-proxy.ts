import { connect, createServer, type Server, type Socket } from 'node:net';
import { Transform } from 'node:stream';

export interface ProxyTarget {
  readonly host: string;
  readonly port: number;
}

export interface TcpProxy {
  /** The port clients connect to (127.0.0.1). */
  readonly port: number;
  /** Cuts every connection and refuses new ones: the backend "goes down" for the client. */
  stop(): Promise<void>;
  /** Listens again on the same port: the backend "comes back". */
  start(): Promise<void>;
  /**
   * Every open connection goes silent: no byte passes either way and neither end sees a FIN or
   * RST, as when a player's network drops without a word (a stale connection). New
   * connections are unaffected.
   */
  freeze(): void;
  /**
   * Armed until it fires: the first bytes a client sends that match `request` are not passed
   * on; instead the proxy stops (as `stop()`), so the backend goes down just as that request
   * leaves the client, unanswered. Resolves once it has stopped.
   */
  stopOnRequest(request: RegExp): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a backend, so a test can take the backend away from an adapter and
 * give it back without stopping it: the data survives, and it works for an external backend
 * too. The target may be a function, asked at each new connection: a proxy can then listen
 * (and its port be handed out) before the backend behind it has started; a connection made
 * while it answers `undefined` is closed at once, as by a backend that is down.
 */
export async function startTcpProxy(
  target: ProxyTarget | (() => ProxyTarget | undefined),
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<readonly [Socket, Socket]>();
  let server: Server | undefined;
  let port = 0;
  /** The armed `stopOnRequest`: its pattern, and what to call once stopped. */
  let trap: { request: RegExp; fired: () => void } | undefined;

  /** Passes a client's bytes on, unless they spring the trap. */
  const inspect = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const armed = trap;
        if (!armed?.request.test(chunk.toString('latin1'))) return done(null, chunk);
        trap = undefined;
        done();
        void stop().then(armed.fired);
      },
    });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const address = typeof target === 'function' ? target() : target;
        if (!address) {
          client.destroy();
          return;
        }
        const upstream = connect(address.port, address.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        const pair = [client, upstream] as const;
        pairs.add(pair);
        client.once('close', () => pairs.delete(pair));
        client.pipe(inspect()).pipe(upstream);
        upstream.pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (address && typeof address === 'object') port = address.port;
        server = next;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  const freeze = () => {
    for (const [client, upstream] of pairs) {
      // Unpiped, an end on one side no longer ends the other; paused, nothing is read.
      client.unpipe();
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    pairs.clear();
  };

  await listen();
  return {
    get port() {
      return port;
    },
    stop,
    start: async () => {
      if (!server) await listen();
    },
    freeze,
    stopOnRequest: (request) =>
      new Promise<void>((resolve) => {
        trap = { request, fired: resolve };
      }),
    close: stop,
  };
}
