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

export interface CliArgs {
  readonly load: boolean;
  readonly runs: readonly RunOptions[];
  readonly report: string | undefined;
}

const CHAOS = { duration: 60, servers: 4, players: 16, rate: 5 };
const LOAD = { duration: 180, servers: 8, players: 2_000, rate: 25 };

const OPTIONS = ['stack', 'seed', 'duration', 'servers', 'players', 'rate', 'report'];

export function parseCliArgs(argv: readonly string[], randomSeed: () => number): CliArgs {
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
  return { load, runs, report: value('report') };
}
