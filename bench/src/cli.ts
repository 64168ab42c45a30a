/**
 * `pnpm bench` (full, into bench/results) and `pnpm bench -- --quick` (the CI smoke run, into
 * bench/results/raw/quick). `--out <dir>` writes the results elsewhere (the CI test writes to
 * a temporary folder).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL, QUICK } from './config.js';
import { writeResults } from './report/write-results.js';
import { runBench } from './run.js';

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

const argv = process.argv.slice(2);
const config = argv.includes('--quick') ? QUICK : FULL;
// A quick run never replaces the full results: it goes to results/raw/ (git-ignored).
const outDir =
  option(argv, '--out') ?? (config.mode === 'quick' ? join(RESULTS, 'raw', 'quick') : RESULTS);
const started = performance.now();
const progress = (message: string) => {
  const at = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${at} s] ${message}\n`);
};

const results = await runBench(config, progress);
const written = await writeResults(results, outDir);
progress(`wrote ${written.join(' and ')}`);
// Timers of closed clients (gRPC, the AWS SDK) must not keep the run alive.
process.exit(0);
