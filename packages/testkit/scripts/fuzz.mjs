#!/usr/bin/env node
/**
 * `pnpm fuzz --runs N [--seed S] [--backends memory,redis,dynamodb]`: the fuzz suite's long
 * run, on demand. Each backend's fuzz test runs with FUZZ_RUNS and FUZZ_SEED set (CI runs the
 * same tests with 30 runs and seed 14); its own vitest setup starts redis-server or DynamoDB
 * Local. Prints the time each backend took, for the README's figures.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2_147_483_647) },
    backends: { type: 'string', default: 'memory,redis,dynamodb' },
  },
});

const SUITES = {
  memory: ['@datadriver/testkit', 'test/fuzz-memory.test.ts'],
  redis: ['@datadriver/redis', 'test/fuzz.test.ts'],
  dynamodb: ['@datadriver/dynamodb', 'test/fuzz.test.ts'],
};

const env = { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SEED: values.seed };
console.log(`fuzz: ${values.runs} runs per property, seed ${values.seed}`);
let failed = false;
for (const backend of values.backends.split(',')) {
  const suite = SUITES[backend];
  if (!suite)
    throw new Error(`unknown backend ${backend}; one of ${Object.keys(SUITES).join(', ')}`);
  const [pkg, file] = suite;
  const started = Date.now();
  const result = spawnSync('pnpm', ['--filter', pkg, 'exec', 'vitest', 'run', file], {
    env,
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`fuzz ${backend}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  failed ||= result.status !== 0;
}
console.log(
  `replay: pnpm fuzz --runs ${values.runs} --seed ${values.seed} --backends ${values.backends}`,
);
process.exit(failed ? 1 : 0);
