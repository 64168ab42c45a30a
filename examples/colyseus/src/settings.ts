/**
 * A game process's settings, from its command line and environment: `--port 2567`, `--scale 1`
 * (the seed's constants times this), `--public-address host:port` (where clients' sockets go;
 * this process's own address when unset), `REDIS_URL` (required: the processes share one Redis).
 */
export interface Settings {
  readonly port: number;
  readonly scale: number;
  readonly publicAddress: string;
  readonly redisUrl: string;
}

export function readSettings(argv: readonly string[], env: NodeJS.ProcessEnv): Settings {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const port = Number(value('port') ?? env.PORT ?? 2567);
  const scale = Number(value('scale') ?? env.DD_SCALE ?? 1);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`--port must be a port number, got ${value('port')}`);
  }
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new Error(`--scale must be a positive number, got ${value('scale')}`);
  }
  if (!env.REDIS_URL) throw new Error('REDIS_URL is required: the game processes share one Redis');
  const publicAddress = value('public-address') ?? `127.0.0.1:${port}`;
  return { port, scale, publicAddress, redisUrl: env.REDIS_URL };
}
