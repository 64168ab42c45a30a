/** The server's command line: `--port N` (or `--port=N`), else the PORT variable, else 8080. */
export const DEFAULT_PORT = 8080;

export interface CliOptions {
  readonly port: number;
  readonly host: string;
}

function portOf(value: string, where: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new RangeError(`${where} must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
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
  return { port, host };
}
