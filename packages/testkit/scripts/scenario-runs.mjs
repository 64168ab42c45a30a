#!/usr/bin/env node
/**
 * Runs real-backend scenario files again and again, without and with an artificial CPU load,
 * and prints how many passed and the slack each bounded wait got (what it spent unscaled).
 *
 *   node packages/testkit/scripts/scenario-runs.mjs [--runs 5] [--load 3] [--modes quiet,loaded] [--traces] \
 *     redis:test/handoff-scenarios.test.ts dynamodb:test/dynamo-stack-scenarios.test.ts ...
 *
 * Each file is `<package dir under packages/>:<test file>`, run as
 * `pnpm --filter @datadriver/<package> exec vitest run <file>`; build the packages first. The load is
 * `--load` busy loops (`nice -n 5 sh -c 'while :; do :; done'`) for the duration of the loaded
 * runs, each ended by its pid afterwards. `--traces` prints each failure's whole message (a
 * failed bound's carries the wait's trace).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters as strip } from 'node:util';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const runs = Number(option('runs', '5'));
const loops = Number(option('load', '3'));
const modes = option('modes', 'quiet,loaded').split(',');
const traces = args.includes('--traces') && args.splice(args.indexOf('--traces'), 1).length > 0;
const files = args;
if (files.length === 0 || !files.every((file) => file.includes(':'))) {
  console.error(
    'usage: scenario-runs.mjs [--runs N] [--load N] [--modes quiet,loaded] pkg:file ...',
  );
  process.exit(2);
}

const WAIT =
  /^(.*): waited (\d+) ms, bounds (-?\d+) to (-?\d+|-) ms \((?:exact \d+; )?slack (-?\d+) ms = path (\d+) ms/;

/** Busy loops for the loaded runs, each one process, ended by its pid. */
function startLoad(count) {
  return Array.from({ length: count }, () =>
    spawn('nice', ['-n', '5', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }),
  );
}

function stopLoad(children) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}

/** The vitest run under way, ended with the load on an interrupt. */
let running;

function runFile(spec, scratch, index) {
  const [pkg, file] = spec.split(':');
  const report = join(scratch, `report-${index}.json`);
  const command = [
    '--filter',
    `@datadriver/${pkg}`,
    'exec',
    'vitest',
    'run',
    file,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  return new Promise((resolve) => {
    const child = spawn('pnpm', command, { stdio: ['ignore', 'pipe', 'pipe'] });
    running = child;
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const started = performance.now();
    child.on('close', () => {
      let json;
      try {
        json = JSON.parse(readFileSync(report, 'utf8'));
      } catch {
        json = undefined;
      }
      resolve({ output: strip(output), json, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** A failure's message: its first line, and with `--traces` the wait's whole trace. */
function failureText(message) {
  const lines = strip(message).split('\n');
  if (!traces) return lines[0];
  const end = lines.findIndex((line) => /^\s+at /.test(line));
  return lines.slice(0, end === -1 ? 80 : Math.min(end, 80)).join('\n    ');
}

function summarize(spec, mode, results) {
  const waits = new Map();
  const failures = [];
  let passedFiles = 0;
  let passed = 0;
  let total = 0;
  for (const { output, json } of results) {
    for (const line of output.split('\n')) {
      const match = WAIT.exec(line.trim());
      if (!match) continue;
      const [, name, waited, , max, slack, unscaled] = match;
      const key = `${name.slice(0, 60)}${max === '-' ? ' (lower bound)' : ''}`;
      const entry = waits.get(key) ?? { waited: [], slack: [], unscaled: [], margin: [] };
      entry.waited.push(Number(waited));
      entry.slack.push(Number(slack));
      entry.unscaled.push(Number(unscaled));
      if (max !== '-') entry.margin.push(Number(max) - Number(waited));
      waits.set(key, entry);
    }
    if (!json) {
      failures.push('no report (the run did not finish)');
      continue;
    }
    passed += json.numPassedTests;
    total += json.numTotalTests;
    if (json.success) passedFiles += 1;
    for (const result of json.testResults ?? [])
      for (const test of result.assertionResults ?? [])
        if (test.status === 'failed')
          failures.push(`${test.title}: ${failureText(test.failureMessages?.[0] ?? '')}`);
  }
  const seconds = results.map((result) => result.seconds.toFixed(0)).join(', ');
  console.log(
    `\n${spec} (${mode}): ${passedFiles}/${results.length} runs passed, tests ${passed}/${total}; seconds per run ${seconds}`,
  );
  const stats = (values) => {
    if (values.length === 0) return '-';
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[0]} / ${sorted[Math.floor(sorted.length / 2)]} / ${sorted.at(-1)}`;
  };
  for (const [name, { slack, margin }] of waits) {
    console.log(
      `  ${name}: slack min/median/max ${stats(slack)} ms; bound - waited ${stats(margin)} ms`,
    );
  }
  for (const failure of failures) console.log(`  FAILED ${failure}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'scenario-runs-'));
let load = [];
const cleanUp = () => {
  stopLoad(load);
  rmSync(scratch, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  running?.kill('SIGINT');
  cleanUp();
  process.exit(130);
});
try {
  let index = 0;
  for (const mode of modes) {
    if (mode === 'loaded') load = startLoad(loops);
    const byFile = new Map(files.map((spec) => [spec, []]));
    for (let run = 0; run < runs; run += 1) {
      for (const spec of files) {
        const before = loadavg()[0].toFixed(1);
        const result = await runFile(spec, scratch, index++);
        byFile.get(spec).push(result);
        console.log(
          `${mode} run ${run + 1} ${spec}: load ${before}, ${result.json?.success ? 'passed' : 'FAILED'}`,
        );
      }
    }
    stopLoad(load);
    load = [];
    for (const [spec, results] of byFile) summarize(spec, mode, results);
  }
} finally {
  cleanUp();
}
