/**
 * Mutation testing of core's rules and flows (`pnpm mutate`; docs/contributing/mutation-testing.md).
 * `STRYKER_SCOPE` picks what is mutated: `handoff-rules` (who gets a lock: the load and
 * save decisions, the silence rule, the same-server rules and the presence reads, against core's suite),
 * `rules` (all of `src/rules/`, against the rules' own tests: vitest.rules.config.ts; CI's short
 * run, incremental against the committed `mutation/rules-incremental.json`), or `flows`
 * (the default: load, session, trade, holder, against core's suite).
 */
const handoffRules = ['lock-rules', 'silence', 'same-server', 'presence-reads'].map(
  (name) => `src/rules/${name}.ts`,
);

const scopes = {
  'handoff-rules': handoffRules,
  rules: ['src/rules/**/*.ts', '!src/rules/index.ts'],
  // The rules are measured in their own scope, against their own tests (see `rules`).
  flows: ['src/load/**/*.ts', 'src/session/**/*.ts', 'src/trade/**/*.ts', 'src/holder/**/*.ts'],
};
const scope = process.env.STRYKER_SCOPE ?? 'flows';
if (!(scope in scopes)) throw new Error(`STRYKER_SCOPE must be one of ${Object.keys(scopes)}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The rules scope runs the rules' own tests (vitest.rules.config.ts); the others, core's suite.
  vitest: {
    configFile: scope === 'rules' ? 'vitest.rules.config.ts' : 'vitest.mutation.config.ts',
  },
  mutate: scopes[scope],
  ignorePatterns: ['dist', 'reports'],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 10_000,
  incremental: true,
  // CI's run reads a copy (mutate:ci), so `pnpm test` leaves the committed file as it was.
  incrementalFile: process.env.STRYKER_INCREMENTAL_FILE ?? `mutation/${scope}-incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'json'],
  clearTextReporter: { logTests: false },
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  thresholds: { high: 90, low: 80, break: Number(process.env.STRYKER_BREAK ?? 0) || null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
