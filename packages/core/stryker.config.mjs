/**
 * Mutation testing of core's rules and flows (`pnpm mutate`; docs/contributing/mutation-testing.md).
 * `STRYKER_SCOPE=rules` narrows it to `src/rules/` (CI's short run, incremental against the
 * committed `mutation/rules-incremental.json`); the default is every directory below.
 */
const scopes = {
  rules: ['src/rules/**/*.ts', '!src/rules/index.ts'],
  flows: [
    'src/rules/**/*.ts',
    '!src/rules/index.ts',
    'src/load/**/*.ts',
    'src/session/**/*.ts',
    'src/trade/**/*.ts',
    'src/holder/**/*.ts',
  ],
};
const scope = process.env.STRYKER_SCOPE ?? 'flows';
if (!(scope in scopes)) throw new Error(`STRYKER_SCOPE must be one of ${Object.keys(scopes)}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: scopes[scope],
  ignorePatterns: ['dist', 'reports'],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 10_000,
  incremental: true,
  incrementalFile: `mutation/${scope}-incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  thresholds: { high: 90, low: 80, break: Number(process.env.STRYKER_BREAK ?? 0) || null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
