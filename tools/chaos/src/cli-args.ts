/**
 * `pnpm chaos [--stack redis|dynamodb|both] [--seed N] [--duration S] [--servers N]
 * [--players N] [--rate HOPS_PER_S] [--report FILE.md]`, and `--load` for the load run
 * (`pnpm chaos:load`): 8 servers on one Redis, thousands of players hopping at a fixed rate,
 * no nemesis.
 */

import type { RunOptions } from './run/chaos-run.js';
import {
  ALL_ACTIONS,
  CHAOS_TIMINGS,
  LOAD_TIMINGS,
  NEMESIS_GAP_MS,
  OUTAGE_MS,
} from './run/presets.js';
import type { StackKind } from './run/stack.js';

/** What `--help` prints. */
export const USAGE = `pnpm chaos [options]       the chaos runs: server processes under a seeded nemesis
pnpm chaos:load [options]  the load run: 8 servers on one Redis, players hopping, no nemesis

  --stack redis|dynamodb|both  the backends (default both; the load run: redis)
  --seed N                     the schedule's seed (default: drawn, and printed)
  --duration SECONDS           how long the schedule lasts (default 60; the load run 180)
  --servers N                  server processes (default 4; the load run 8)
  --players N                  players hopping between them (default 16; the load run 2000)
  --rate HOPS_PER_SECOND       the workload's fixed rate (default 5; the load run 25)
  --report FILE.md             append each run's figures to FILE.md as markdown
  --help                       this text

Exits 1 on any violation. The histories stay in /tmp/chaos-<stack>-<seed>-*/.`;

export interface CliArgs {
  readonly help: boolean;
  readonly load: boolean;
  readonly runs: readonly RunOptions[];
  readonly report: string | undefined;
}

const CHAOS = { duration: 60, servers: 4, players: 16, rate: 5 };
const LOAD = { duration: 180, servers: 8, players: 2_000, rate: 25 };

const OPTIONS = ['stack', 'seed', 'duration', 'servers', 'players', 'rate', 'report'];

export function parseCliArgs(argv: readonly string[], randomSeed: () => number): CliArgs {
  if (argv.includes('--help')) return { help: true, load: false, runs: [], report: undefined };
  const known = new Set(['--load', ...OPTIONS.map((name) => `--${name}`)]);
  for (const arg of argv) {
    if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown option ${arg}`);
  }
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`);
    if (index < 0) return undefined;
    const raw = argv[index + 1];
    if (raw === undefined || raw.startsWith('--')) throw new Error(`--${name} needs a value`);
    return raw;
  };
  const number = (name: string, fallback: number, integer: boolean): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!(parsed > 0) || (integer && !Number.isInteger(parsed))) {
      throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got ${raw}`);
    }
    return parsed;
  };
  const load = argv.includes('--load');
  const defaults = load ? LOAD : CHAOS;
  const stackArg = value('stack') ?? (load ? 'redis' : 'both');
  if (!['redis', 'dynamodb', 'both'].includes(stackArg)) {
    throw new Error(`--stack must be redis, dynamodb or both, got ${stackArg}`);
  }
  const kinds: StackKind[] = stackArg === 'both' ? ['redis', 'dynamodb'] : [stackArg as StackKind];
  const seed = number('seed', randomSeed(), true);
  const runs = kinds.map(
    (kind): RunOptions => ({
      kind,
      seed,
      durationMs: number('duration', defaults.duration, false) * 1_000,
      servers: number('servers', defaults.servers, true),
      players: number('players', defaults.players, true),
      hopsPerSecond: number('rate', defaults.rate, false),
      liveShare: load ? 1 : 0.5,
      actions: load ? [] : ALL_ACTIONS,
      nemesisGapMs: NEMESIS_GAP_MS,
      outageMs: OUTAGE_MS,
      timings: load ? LOAD_TIMINGS : CHAOS_TIMINGS,
    }),
  );
  return { help: false, load, runs, report: value('report') };
}
