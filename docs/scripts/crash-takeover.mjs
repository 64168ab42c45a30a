#!/usr/bin/env node
/**
 * The "crash to takeover" column of docs/operations/scaling-out.md's stacks table: scenario 5
 * of the testkit's handoff scenarios (a holder crashes right after a presence beat; the player
 * joins another server) on each stack's real backends at the default timings (DD_SCALE=1), and
 * the wait from the crash to the lock taken, as the scenario prints it.
 *
 *   pnpm turbo run build --filter=./packages/*     (the adapters' and testkit's dist)
 *   node docs/scripts/crash-takeover.mjs           (every stack, one run each: about 2 minutes each)
 *   node docs/scripts/crash-takeover.mjs redis     (the stacks whose label contains "redis")
 *
 * Each run starts its own backends as the package's tests do (redis-server, DynamoDB Local,
 * the Pub/Sub emulator, a throwaway PostgreSQL): see docs/guide/setup.md.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const STACKS = [
  ['all-Redis', '@datadriver/redis', 'test/handoff-scenarios.test.ts'],
  ['Redis + Pub/Sub', '@datadriver/pubsub', 'test/handoff-scenarios.test.ts'],
  ['DynamoDB + Redis', '@datadriver/dynamodb', 'test/handoff-scenarios.test.ts'],
  ['all-DynamoDB', '@datadriver/dynamodb', 'test/dynamo-stack-scenarios.test.ts'],
  ['all-PostgreSQL', '@datadriver/postgres', 'test/handoff-scenarios.test.ts'],
  ['PostgreSQL + Redis', '@datadriver/postgres', 'test/mixed-stack-scenarios.test.ts'],
];

/** Runs scenario 5 of one stack; resolves with what vitest printed. */
function run(pkg, file) {
  const args = ['--filter', pkg, 'exec', 'vitest', 'run', file, '-t', '5\\. a crash is taken over'];
  const child = spawn('pnpm', args, {
    cwd: root,
    env: { ...process.env, DD_SCALE: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

const only = process.argv[2]?.toLowerCase();
// Real-time waits stretch on a busy machine: say how busy it was.
const load = () => `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
console.log(`${new Date().toISOString()}, ${load()}`);
for (const [label, pkg, file] of STACKS) {
  if (only && !label.toLowerCase().includes(only)) continue;
  const { code, output } = await run(pkg, file);
  // The scenario prints its waits in order: from the beat before the crash, then from the
  // crash itself to the lock taken (the second), then the presence reads' own.
  const waits = [...output.matchAll(/5\. a crash[^\n]*: waited (\d+) ms/g)].map((m) =>
    Number(m[1]),
  );
  const fromCrash = waits[1];
  if (code !== 0 || fromCrash === undefined) {
    console.log(`${label}: failed (exit ${code})\n${output.split('\n').slice(-30).join('\n')}`);
    process.exitCode = 1;
    continue;
  }
  console.log(`${label}: crash to takeover ${(fromCrash / 1000).toFixed(1)} s (${pkg} ${file})`);
}
console.log(`done, ${load()}`);
