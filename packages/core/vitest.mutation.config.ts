import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): core's own, less the one that
 * reads the built bundle (dist/ is not rebuilt per mutant, so it could not see one). Files share
 * one module graph (isolate off): a mutant's run then costs its tests, not the 30 s of imports
 * an isolated run spends per file on two cores. Core's suite passes either way.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bundle-names.test.ts'],
    isolate: false,
  },
});
