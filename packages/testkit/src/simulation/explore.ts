/**
 * Many runs over a range of seeds: what CI's budget and the long exploration run. Keeps
 * only the failing runs (with their traces) and totals for the rest.
 */
import { runSimulation, type SimulationResult } from './run.js';

export interface ExploreSummary {
  readonly from: number;
  readonly runs: number;
  readonly failures: SimulationResult[];
  readonly wallMs: number;
  readonly virtualMs: number;
  /** Events and faults seen over every run, by name. */
  readonly counts: ReadonlyMap<string, number>;
}

export interface ExploreOptions {
  /** Stop at the first failing run. */
  readonly stopAtFirst?: boolean;
}

export async function explore(
  from: number,
  runs: number,
  options: ExploreOptions = {},
): Promise<ExploreSummary> {
  const started = performance.now();
  const failures: SimulationResult[] = [];
  const counts = new Map<string, number>();
  let virtualMs = 0;
  let done = 0;
  for (let seed = from; seed < from + runs; seed += 1) {
    // Without a trace, which only a failure prints: a failing seed is run again with one (a
    // seed replays exactly).
    const quick = await runSimulation(seed, { trace: false });
    const traced = quick.violation ? await runSimulation(seed) : undefined;
    const result = traced?.violation ? traced : quick;
    done += 1;
    virtualMs += result.virtualMs;
    addCounts(counts, result.counts);
    if (result.violation) failures.push(result);
    if (result.violation && options.stopAtFirst) break;
  }
  return { from, runs: done, failures, wallMs: performance.now() - started, virtualMs, counts };
}

/** Adds `more` into `total`, name by name. */
export function addCounts(total: Map<string, number>, more: ReadonlyMap<string, number>): void {
  for (const [name, count] of more) total.set(name, (total.get(name) ?? 0) + count);
}
