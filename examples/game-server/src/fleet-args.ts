import type { FleetStack } from './fleet.js';

/**
 * Command-line options of `pnpm fleet`: `--count 3 --port 7001 --scale 1 --stack postgres`, or
 * `--help`.
 */
export interface FleetArgs {
  readonly count: number;
  readonly firstPort: number;
  readonly scale: number;
  readonly stack: FleetStack;
  readonly help: boolean;
}

export const FLEET_USAGE = `Usage: pnpm fleet [--count N] [--port P] [--scale S] [--stack redis|postgres]

Starts a redis-server on loopback (or uses REDIS_URL) and N game servers
(jobIds server-a, server-b, ...) on ports P, P+1, ... Ctrl-C stops them in order:
each game server releases its profiles, then Redis stops.

  --count N         how many game servers (default 3)
  --port P          the first server's port (default 7001; 0 picks free ports)
  --scale S         every handoff constant and wait times S (default 1, the default timings)
  --stack postgres  store, messages and presence on one PostgreSQL instead of Redis:
                    a throwaway server on loopback (or uses DATABASE_URL)
  --help            this text`;

const KNOWN = new Set(['--count', '--port', '--scale', '--stack', '--help']);

export function parseFleetArgs(argv: readonly string[]): FleetArgs {
  for (const arg of argv) {
    if (arg.startsWith('--') && !KNOWN.has(arg)) throw new Error(`unknown option ${arg}`);
  }
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`);
    if (index < 0) return undefined;
    const raw = argv[index + 1];
    if (raw === undefined || raw.startsWith('--')) throw new Error(`--${name} needs a value`);
    return raw;
  };
  const count = Number(value('count') ?? 3);
  const firstPort = Number(value('port') ?? 7001);
  const scale = Number(value('scale') ?? 1);
  if (!Number.isInteger(count) || count < 1 || count > 26) {
    throw new Error(`--count must be a whole number from 1 to 26, got ${value('count')}`);
  }
  if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort + count - 1 > 65_535) {
    throw new Error(`--port must be a port number, got ${value('port')}`);
  }
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new Error(`--scale must be a positive number, got ${value('scale')}`);
  }
  const stack = value('stack') ?? 'redis';
  if (stack !== 'redis' && stack !== 'postgres') {
    throw new Error(`--stack must be redis or postgres, got ${stack}`);
  }
  return { count, firstPort, scale, stack, help: argv.includes('--help') };
}
