/**
 * `pnpm bench` (full, into bench/results) and `pnpm bench -- --quick` (the CI smoke run, into
 * bench/results/raw/quick). `--out <dir>` writes the results elsewhere (the CI test writes to
 * a temporary folder). `--only handover,throughput` runs only those parts (see PARTS), into
 * bench/results/raw/only unless `--out` says otherwise: a partial run never replaces the full
 * results. `--stack dynamodb-redis` (a list, like `--only`) runs the hand-over part on those
 * stacks only (see COMBO_IDS), and the throughput part on the stores it names (all-redis:
 * Redis's, all-postgres: PostgreSQL's), into bench/results/raw/only likewise. `--warm-up 100`
 * sets the unrecorded hops before the recorded hand-overs (`warmUpHops`), into
 * bench/results/raw/only likewise.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMBO_IDS, type ComboId } from './backends.js';
import { type BenchConfig, FULL, QUICK } from './config.js';
import { writeResults } from './report/write-results.js';
import { PARTS, type Part, runBench } from './run.js';

// The SDK pin is deliberate (later releases need Node 22); its notice is not a result. The same
// for aws-sdk v2, which the peer library is written for.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE ??= '1';
process.env.METADATA_SERVER_DETECTION ??= 'none';

const RESULTS = fileURLToPath(new URL('../results', import.meta.url));

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

function partsOf(list: string | undefined): ReadonlySet<Part> {
  if (list === undefined) return new Set(PARTS);
  const names = list.split(',');
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    process.stderr.write(`--only takes a list of ${PARTS.join(', ')}; got ${list}\n`);
    process.exit(2);
  }
  return new Set(names as Part[]);
}

function stacksOf(list: string | undefined): ReadonlySet<ComboId> | undefined {
  if (list === undefined) return undefined;
  const names = list.split(',');
  if (names.some((name) => !(COMBO_IDS as readonly string[]).includes(name))) {
    process.stderr.write(`--stack takes a list of ${COMBO_IDS.join(', ')}; got ${list}\n`);
    process.exit(2);
  }
  return new Set(names as ComboId[]);
}

/** `config` with `warmUpHops` unrecorded hops when `--warm-up` says how many. */
function withWarmUp(config: BenchConfig, hops: string | undefined): BenchConfig {
  if (hops === undefined) return config;
  const warmUpHops = Number(hops);
  if (!Number.isSafeInteger(warmUpHops) || warmUpHops < 0) {
    process.stderr.write(`--warm-up takes a whole number of hops; got ${hops}\n`);
    process.exit(2);
  }
  return { ...config, warmUpHops };
}

const argv = process.argv.slice(2);
const warmUpHops = option(argv, '--warm-up');
const config = withWarmUp(argv.includes('--quick') ? QUICK : FULL, warmUpHops);
const only = option(argv, '--only');
const parts = partsOf(only);
const stacks = stacksOf(option(argv, '--stack'));
// A quick, partial or re-warmed run never replaces the full results: it goes to results/raw/
// (git-ignored).
const defaultOut =
  only !== undefined || stacks !== undefined || warmUpHops !== undefined
    ? join(RESULTS, 'raw', 'only')
    : config.mode === 'quick'
      ? join(RESULTS, 'raw', 'quick')
      : RESULTS;
const outDir = option(argv, '--out') ?? defaultOut;
const started = performance.now();
const progress = (message: string) => {
  const at = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${at} s] ${message}\n`);
};

const results = await runBench(config, progress, parts, stacks);
results.command = argv.length === 0 ? 'pnpm bench' : `pnpm bench -- ${argv.join(' ')}`;
const written = await writeResults(results, outDir);
progress(`wrote ${written.join(' and ')}`);
// Timers of closed clients (gRPC, the AWS SDK) must not keep the run alive.
process.exit(0);
