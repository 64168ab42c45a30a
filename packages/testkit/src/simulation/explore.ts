/**
 * Many runs over a range of seeds: what CI's budget and the long exploration run. Keeps
 * only the failing runs (with their traces) and totals for the rest.
 */
import type { InvariantName } from './invariants.js';
import { runSimulation, type SimulationResult } from './run.js';

export interface ExploreSummary {
  readonly from: number;
  readonly runs: number;
  readonly failures: SimulationResult[];
  /** Runs that saw each known core issue (tolerated unless strict). */
  readonly knownIssues: ReadonlyMap<InvariantName, number>;
  readonly wallMs: number;
  readonly virtualMs: number;
  /** Events and faults seen over every run, by name. */
  readonly counts: ReadonlyMap<string, number>;
}

export interface ExploreOptions {
  /** Fail on known core issues too. */
  readonly strict?: boolean;
  /** Stop at the first failing run. */
  readonly stopAtFirst?: boolean;
  /** Called after each run (progress reports). */
  readonly onRun?: (result: SimulationResult, done: number) => void;
}

export async function explore(
  from: number,
  runs: number,
  options: ExploreOptions = {},
): Promise<ExploreSummary> {
  const started = performance.now();
  const failures: SimulationResult[] = [];
  const counts = new Map<string, number>();
  const knownIssues = new Map<InvariantName, number>();
  let virtualMs = 0;
  let done = 0;
  for (let seed = from; seed < from + runs; seed += 1) {
    const result = await runSimulation(seed, { strict: options.strict ?? false });
    for (const name of result.knownIssues) knownIssues.set(name, (knownIssues.get(name) ?? 0) + 1);
    done += 1;
    virtualMs += result.virtualMs;
    for (const [name, count] of result.counts) counts.set(name, (counts.get(name) ?? 0) + count);
    if (result.violation) failures.push(result);
    options.onRun?.(result, done);
    if (result.violation && options.stopAtFirst) break;
  }
  return {
    from,
    runs: done,
    failures,
    knownIssues,
    wallMs: performance.now() - started,
    virtualMs,
    counts,
  };
}
