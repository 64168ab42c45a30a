/**
 * `pnpm chaos` / `pnpm chaos:load`: runs, prints each run's figures and violations (with the
 * command that replays its schedule), appends them to `--report` if given, and exits 1 on any
 * violation.
 */
import { appendFileSync } from 'node:fs';
import { parseCliArgs, USAGE } from './cli-args.js';
import { markdownReport, textReport } from './report.js';
import { runChaos } from './run/chaos-run.js';

// The AWS SDK's notice about Node 20, once per client: not this tool's business.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const args = parseCliArgs(process.argv.slice(2), () => Math.floor(Math.random() * 1_000_000) + 1);
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const script = args.load ? 'chaos:load' : 'chaos';
let violations = 0;
for (const run of args.runs) {
  console.log(`starting ${run.kind} run, seed ${run.seed}, ${run.durationMs / 1_000} s`);
  const report = await runChaos(run);
  violations += report.violations.length;
  console.log(textReport(report, script));
  if (args.report) appendFileSync(args.report, `${markdownReport(report, script, new Date())}\n`);
}
process.exit(violations === 0 ? 0 : 1);
