/**
 * `pnpm plant-check [name...] [--all] [--simulate N]`: applies each planted bug of
 * plants/plants.json to core's source in turn, runs the tests that must catch it, and reverts it.
 * A plant the tests do not catch fails the check. `--all` runs core's whole suite per plant
 * instead of the named tests; `--simulate N` also builds core with the plant and runs N seeds of
 * the cluster simulator (from seed 1, stopping at the first violation), which must break the
 * invariant the plant names. The working tree must have no changes to the planted files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const core = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(core, '..', '..');
const plants = JSON.parse(readFileSync(join(core, 'plants', 'plants.json'), 'utf8'));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { all: { type: 'boolean', default: false }, simulate: { type: 'string' } },
});
const chosen = positionals.length
  ? plants.filter((plant) => positionals.some((name) => plant.patch.includes(name)))
  : plants;

/** Plain output: no colours in the lines the check reads. */
const env = { ...process.env, NO_COLOR: '1' };
delete env.FORCE_COLOR;

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

function apply(plant, reverse) {
  const patch = join(core, 'plants', plant.patch);
  const args = ['apply', ...(reverse ? ['-R'] : []), '--directory=packages/core', patch];
  const { ok, output } = run('git', args, root);
  if (!ok) throw new Error(`git apply ${reverse ? '-R ' : ''}${plant.patch} failed:\n${output}`);
}

const asPattern = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs one named test of the plant's list: 'passed', 'failed' or 'missing' (no such test). */
function runTest(test) {
  const args = ['exec', 'vitest', 'run', '--config', 'vitest.mutation.config.ts', test.file];
  const { output } = run('pnpm', [...args, '-t', asPattern(test.title)], core);
  if (/Tests\s+1 failed/.test(output)) return 'failed';
  if (/Tests\s+1 passed/.test(output)) return 'passed';
  return 'missing';
}

/** With the plant in: every test of its list fails (or, with --all, core's suite fails). */
function testsCatch(plant) {
  if (values.all) {
    const args = ['exec', 'vitest', 'run', '--config', 'vitest.mutation.config.ts'];
    return !run('pnpm', args, core).ok;
  }
  return plant.tests.every((test) => runTest(test) === 'failed');
}

/** The first violation the simulator finds within N seeds (seed and invariant), if any. */
function simulatorCatches(plant, seeds) {
  const build = run('pnpm', ['exec', 'tsup'], core);
  if (!build.ok) throw new Error(`core did not build with ${plant.patch}:\n${build.output}`);
  const args = ['packages/testkit/dist/simulation/cli.js', '--runs', String(seeds), '--stop'];
  const { output } = run('node', args, root);
  const found = output.match(/seed (\d+): VIOLATION ([a-z-]+)/);
  return found ? { seed: Number(found[1]), invariant: found[2] } : undefined;
}

// Without the plants every named test exists and passes: a failure below is the plant's doing.
for (const plant of chosen) {
  for (const test of plant.tests) {
    const outcome = runTest(test);
    if (outcome !== 'passed')
      throw new Error(`${test.file}: "${test.title}" ${outcome} without the plant`);
  }
}

let missed = 0;
for (const plant of chosen) {
  apply(plant, false);
  let verdict;
  try {
    const caught = testsCatch(plant);
    verdict = caught ? 'caught by its tests' : 'MISSED by its tests';
    if (!caught) missed += 1;
    if (values.simulate !== undefined && plant.simulator.invariant) {
      const found = simulatorCatches(plant, Number(values.simulate));
      const expected = found?.invariant === plant.simulator.invariant;
      if (!expected) missed += 1;
      const what = found ? `${found.invariant} at seed ${found.seed}` : 'no violation';
      verdict += `; simulator: ${what}${expected ? '' : ` (expected ${plant.simulator.invariant})`}`;
    }
  } finally {
    apply(plant, true);
  }
  console.log(`${plant.patch}: ${verdict}`);
}
if (values.simulate !== undefined) run('pnpm', ['exec', 'tsup'], core); // the real code again
console.log(`${chosen.length} plants, ${missed} missed`);
process.exitCode = missed ? 1 : 0;
