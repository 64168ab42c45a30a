/**
 * The server's command line: `--port N` (or `--port=N`), else the PORT variable, else 8080;
 * `--host`; and `--redis <url>`, which plays the cases on real game servers on that Redis, or
 * `--postgres <url>`, on game servers keeping every port on that PostgreSQL.
 * REDIS_URL alone does not switch modes: the default stays the in-memory backend, which needs
 * no service, whatever the shell exports.
 */
export const DEFAULT_PORT = 8080;

export interface CliOptions {
  readonly port: number;
  readonly host: string;
  /** Set by `--redis`: the Redis the game servers use. */
  readonly redisUrl?: string;
  /** Set by `--postgres`: the PostgreSQL the game servers use (`--stack postgres`). */
  readonly databaseUrl?: string;
}

function portOf(value: string, where: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new RangeError(`${where} must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function redisUrlOf(value: string): string {
  if (!/^rediss?:\/\/./.test(value)) {
    throw new RangeError(`--redis must be a redis:// or rediss:// URL, got "${value}"`);
  }
  return value;
}

function flag(argv: readonly string[], name: string): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === `--${name}`) {
      const value = argv[index + 1];
      if (value === undefined) throw new RangeError(`--${name} needs a value`);
      return value;
    }
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

export function parseCliOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  const portFlag = flag(argv, 'port');
  const port =
    portFlag !== undefined
      ? portOf(portFlag, '--port')
      : env.PORT
        ? portOf(env.PORT, 'PORT')
        : DEFAULT_PORT;
  // Loopback by default: the demo is for the person at this machine.
  const host = flag(argv, 'host') ?? '127.0.0.1';
  const redis = flag(argv, 'redis');
  const postgres = flag(argv, 'postgres');
  if (redis !== undefined && postgres !== undefined) {
    throw new RangeError('--redis and --postgres choose the same thing: give one');
  }
  if (postgres !== undefined) {
    if (!/^postgres(ql)?:\/\/./.test(postgres)) {
      throw new RangeError(`--postgres must be a postgres:// URL, got "${postgres}"`);
    }
    return { port, host, databaseUrl: postgres };
  }
  return redis === undefined ? { port, host } : { port, host, redisUrl: redisUrlOf(redis) };
}
