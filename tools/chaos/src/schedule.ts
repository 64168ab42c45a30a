/**
 * A run's schedule, drawn from its seed before it starts: which player hops to which server
 * when, and what the nemesis does to whom, when and for how long. Real time still varies from
 * run to run; the order, the targets and the planned times do not.
 */
import { Random } from '@datadriver/testkit/simulation';
import type { NemesisAction } from './history.js';

export interface Hop {
  /** Planned time from the run's start. */
  readonly atMs: number;
  readonly player: string;
  /** Index of the target server. */
  readonly to: number;
  /** `live`: join while still connected to the old server; `clean`: leave it first. */
  readonly mode: 'live' | 'clean';
}

export interface NemesisStep {
  readonly atMs: number;
  readonly action: NemesisAction;
  /** Index of the server it hits (unused by `restart-backend`). */
  readonly target: number;
  /** How long the fault lasts before it is healed. */
  readonly durationMs: number;
}

export interface PlanOptions {
  readonly seed: number;
  readonly durationMs: number;
  readonly servers: number;
  readonly players: number;
  /** The workload's fixed rate. */
  readonly hopsPerSecond: number;
  /** Share of hops made while still connected to the old server (0 to 1). */
  readonly liveShare: number;
  /** The actions the nemesis draws from (none: no nemesis). */
  readonly actions: readonly NemesisAction[];
  /** Quiet time between one fault's heal and the next fault. */
  readonly nemesisGapMs: readonly [number, number];
  /** How long a kill, a cut or a backend outage lasts. */
  readonly outageMs: readonly [number, number];
  /** How long a SIGSTOP lasts: past the lock's TTL and skew. */
  readonly pauseMs: number;
}

export interface Plan {
  readonly hops: readonly Hop[];
  readonly nemesis: readonly NemesisStep[];
}

/** Nothing happens in the first and last stretch: the servers settle in, and joins end. */
const QUIET_MS = 1_500;

export function planRun(options: PlanOptions): Plan {
  return {
    hops: planHops(options, Random.stream(options.seed, 'workload')),
    nemesis: planNemesis(options, Random.stream(options.seed, 'nemesis')),
  };
}

function planHops(options: PlanOptions, random: Random): Hop[] {
  const { players, servers, durationMs, hopsPerSecond } = options;
  const count = Math.floor((durationMs / 1_000) * hopsPerSecond);
  const where = new Map<string, number>();
  const hops: Hop[] = [];
  for (let index = 0; index < count; index += 1) {
    // Every player joins once first, in order; then they hop at random.
    const player = `player-${index < players ? index : random.int(0, players - 1)}`;
    const from = where.get(player);
    let to = random.int(0, servers - 1);
    if (from !== undefined && servers > 1 && to === from)
      to = (to + random.int(1, servers - 1)) % servers;
    const mode = from !== undefined && random.chance(options.liveShare) ? 'live' : 'clean';
    hops.push({ atMs: Math.round((index * 1_000) / hopsPerSecond), player, to, mode });
    where.set(player, to);
  }
  return hops;
}

function planNemesis(options: PlanOptions, random: Random): NemesisStep[] {
  if (options.actions.length === 0) return [];
  const steps: NemesisStep[] = [];
  let atMs = QUIET_MS + random.int(...options.nemesisGapMs);
  // Rounds of every action in a shuffled order: a short run still meets each of them.
  let round: NemesisAction[] = [];
  for (;;) {
    if (round.length === 0) round = shuffled(options.actions, random);
    const action = round.pop()!;
    const durationMs = action === 'pause' ? options.pauseMs : random.int(...options.outageMs);
    if (atMs + durationMs > options.durationMs - QUIET_MS) return steps;
    steps.push({ atMs, action, target: random.int(0, options.servers - 1), durationMs });
    atMs += durationMs + random.int(...options.nemesisGapMs);
  }
}

/** Fisher-Yates on a copy. */
function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
