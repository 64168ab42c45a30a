/**
 * `pnpm simulate --seed N [--trace]` replays one run; `pnpm simulate --runs N [--from S]`
 * explores seeds S to S+N-1 (from 1). Exits 1 when an invariant was broken.
 */
import { parseArgs } from 'node:util';
import { explore } from './explore.js';
import { describeFailure, describeSuccess, runSimulation } from './run.js';

const USAGE = `usage: pnpm simulate --seed N [--trace] [--strict]
       pnpm simulate --runs N [--from S] [--stop] [--strict]
  --seed N   replay the run of seed N (a failure prints its trace)
  --trace    print the whole trace of that run, even when it holds
  --runs N   run seeds S to S+N-1 and report the failures
  --from S   the first seed (default 1)
  --stop     stop at the first failure
  --strict   fail on the known core issues too (KNOWN_CORE_ISSUES in invariants.ts)`;

function integer(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new Error(`--${name} needs a whole number`);
  return parsed;
}

async function replay(seed: number, full: boolean, strict: boolean): Promise<number> {
  const result = await runSimulation(seed, { strict });
  if (result.violation) {
    console.log(describeFailure(result, { full }));
    return 1;
  }
  console.log(describeSuccess(result));
  if (full) console.log(result.trace.format());
  return 0;
}

async function exploreRange(
  from: number,
  runs: number,
  options: { stopAtFirst: boolean; strict: boolean },
): Promise<number> {
  const every = Math.max(1, Math.floor(runs / 10));
  const summary = await explore(from, runs, {
    ...options,
    onRun: (result, done) => {
      if (result.violation) {
        console.error(
          `seed ${result.seed}: ${result.violation.invariant}: ${result.violation.message}`,
        );
      }
      if (done % every === 0) console.error(`  ${done}/${runs} runs`);
    },
  });
  const seconds = (summary.wallMs / 1000).toFixed(1);
  console.log(
    `${summary.runs} runs (seeds ${from} to ${from + summary.runs - 1}), ${summary.failures.length} violations, ${seconds} s (${(summary.wallMs / summary.runs).toFixed(1)} ms a run, ${(summary.virtualMs / 3_600_000).toFixed(1)} h simulated)`,
  );
  const taken = ['stolen', 'stale', 'orphaned'].map(
    (reason) => `${reason} ${summary.counts.get(`lock.taken.${reason}`) ?? 0}`,
  );
  console.log(
    `  loads ${summary.counts.get('load.loaded') ?? 0}, failed loads ${summary.counts.get('load.failed') ?? 0}, takeovers ${taken.join(', ')}, trades committed ${summary.counts.get('trade.committed') ?? 0}, recovered ${summary.counts.get('trade.recovered') ?? 0}, crashes ${summary.counts.get('crash') ?? 0}`,
  );
  for (const [name, count] of summary.knownIssues) {
    console.log(`  known core issue ${name} (tolerated; --strict fails on it) in ${count} runs`);
  }
  const first = summary.failures[0];
  if (!first) return 0;
  console.log(`failing seeds: ${summary.failures.map((result) => result.seed).join(' ')}`);
  console.log(describeFailure(first));
  return 1;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      runs: { type: 'string' },
      from: { type: 'string' },
      trace: { type: 'boolean', default: false },
      stop: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (values.seed === undefined && values.runs === undefined)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const { trace, stop, strict } = values;
  if (values.seed !== undefined) return replay(integer('seed', values.seed), trace, strict);
  const from = integer('from', values.from, 1);
  return exploreRange(from, integer('runs', values.runs), { stopAtFirst: stop, strict });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(USAGE);
    process.exitCode = 2;
  },
);
