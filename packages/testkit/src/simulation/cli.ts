/**
 * `pnpm simulate --seed N [--trace]` replays one run; `pnpm simulate --runs N [--from S]`
 * explores seeds S to S+N-1 (from 1), on `--jobs` worker threads in chunks, and `--resume`
 * skips the chunks an earlier log reports done. Exits 1 when an invariant was broken.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { explore } from './explore.js';
import {
  type ChunkResult,
  chunkLine,
  chunksDone,
  chunksOf,
  exploreInWorkers,
  runChunk,
  serveChunks,
  totalCounts,
} from './explore-parallel.js';
import { flowTable } from './flows.js';
import { describeFailure, describeSuccess, describeTakeovers, runSimulation } from './run.js';

const USAGE = `usage: pnpm simulate --seed N [--trace]
       pnpm simulate --runs N [--from S] [--stop] [--jobs J] [--chunk C] [--resume LOG]
  --seed N      replay the run of seed N (a failure prints its trace)
  --trace       print the whole trace of that run, even when it holds
  --runs N      run seeds S to S+N-1 and report the failures
  --from S      the first seed (default 1)
  --stop        stop at the first failure (one job)
  --jobs J      run chunks of seeds on J worker threads (default 1)
  --chunk C     seeds per chunk (default 1000); each finished chunk prints one line
  --resume LOG  skip the chunks that LOG (the output of an earlier run) reports done`;

function integer(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new Error(`--${name} needs a whole number`);
  return parsed;
}

async function replay(seed: number, full: boolean): Promise<number> {
  const result = await runSimulation(seed);
  if (result.violation) {
    console.log(describeFailure(result, { full }));
    return 1;
  }
  console.log(describeSuccess(result));
  if (full) console.log(result.trace.format());
  return 0;
}

/** One job, seed by seed, up to the first failure. */
async function exploreUntilFirst(from: number, runs: number): Promise<number> {
  const [first] = (await explore(from, runs, { stopAtFirst: true })).failures;
  if (first) {
    console.log(describeFailure(first));
    return 1;
  }
  console.log(`${runs} runs (seeds ${from} to ${from + runs - 1}), 0 violations`);
  return 0;
}

interface RangeOptions {
  readonly jobs: number;
  readonly chunk: number;
  readonly resume: string | undefined;
}

async function exploreRange(from: number, runs: number, options: RangeOptions): Promise<number> {
  const started = performance.now();
  const done = options.resume ? chunksDone(options.resume) : new Set<string>();
  const all = chunksOf(from, runs, options.chunk);
  const chunks = all.filter((chunk) => !done.has(`${chunk.from}-${chunk.from + chunk.runs - 1}`));
  if (chunks.length < all.length) {
    console.log(`resuming: ${all.length - chunks.length} of ${all.length} chunks already done`);
  }
  const results: ChunkResult[] = [];
  const onChunk = (result: ChunkResult) => {
    results.push(result);
    for (const failure of result.failures) console.log(failure.line);
    console.log(chunkLine(result));
  };
  if (options.jobs <= 1) {
    for (const chunk of chunks) onChunk(await runChunk(chunk));
  } else {
    await exploreInWorkers(fileURLToPath(import.meta.url), chunks, options.jobs, onChunk);
  }
  return summarize(results, (performance.now() - started) / 1000);
}

function summarize(results: readonly ChunkResult[], seconds: number): number {
  const runs = results.reduce((sum, result) => sum + result.runs, 0);
  const failures = results.flatMap((result) => result.failures).sort((x, y) => x.seed - y.seed);
  const virtualHours = results.reduce((sum, result) => sum + result.virtualMs, 0) / 3_600_000;
  const counts = totalCounts(results);
  const count = (name: string) => counts.get(name) ?? 0;
  console.log(
    `${runs} runs, ${failures.length} violations, ${seconds.toFixed(1)} s wall, ${virtualHours.toFixed(1)} h simulated`,
  );
  console.log(
    `  loads ${count('load.loaded')}, failed loads ${count('load.failed')}, takeovers ${describeTakeovers(counts)}, trades committed ${count('trade.committed')}, recovered ${count('trade.recovered')}, adoptions ${count('profile.adopted')}, crashes ${count('crash')}`,
  );
  console.log(flowTable(counts, runs));
  const first = failures[0];
  if (!first) return 0;
  console.log(`failing seeds: ${failures.map((failure) => failure.seed).join(' ')}`);
  console.log(first.report);
  return 1;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      runs: { type: 'string' },
      from: { type: 'string' },
      jobs: { type: 'string' },
      chunk: { type: 'string' },
      resume: { type: 'string' },
      trace: { type: 'boolean', default: false },
      stop: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (values.seed === undefined && values.runs === undefined)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.seed !== undefined) return replay(integer('seed', values.seed), values.trace);
  const from = integer('from', values.from, 1);
  const runs = integer('runs', values.runs);
  if (values.stop) return exploreUntilFirst(from, runs);
  const chunk = Math.max(1, integer('chunk', values.chunk, 1000));
  return exploreRange(from, runs, {
    jobs: integer('jobs', values.jobs, 1),
    chunk,
    resume: values.resume,
  });
}

// Started as a worker thread by --jobs: serve chunks instead of reading the command line.
if (!serveChunks()) {
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
}
