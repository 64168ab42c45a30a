import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Tests that swap a rule of core's (vi.mock) run against core's source, not its dist. */
const coreSourceTests = ['test/simulation-broken-rule.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'testkit', include: ['test/**/*.test.ts'], exclude: coreSourceTests },
      },
      {
        extends: true,
        resolve: {
          alias: {
            '@datadriver/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
          },
        },
        test: { name: 'core-source', include: coreSourceTests },
      },
    ],
  },
});
