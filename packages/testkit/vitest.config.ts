import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Tests that swap a rule of core's (vi.mock) run against core's source, not its dist. */
const coreSourceTests = [
  'test/simulation-broken-rule.test.ts',
  'test/simulation-drivers-apart.test.ts',
];

const coreSource = (file: string) => fileURLToPath(new URL(`../core/src/${file}`, import.meta.url));

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
          alias: [
            { find: /^@datadriver\/core$/, replacement: coreSource('index.ts') },
            { find: /^@datadriver\/core\/ports$/, replacement: coreSource('ports.ts') },
            { find: /^@datadriver\/core\/rules$/, replacement: coreSource('rules.ts') },
            { find: /^@datadriver\/core\/testing$/, replacement: coreSource('testing.ts') },
          ],
        },
        test: { name: 'core-source', include: coreSourceTests },
      },
    ],
  },
});
