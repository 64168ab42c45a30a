import { defineConfig } from 'vitest/config';

// One module graph for all test files of a worker (no per-file isolation): every core test
// builds its own clock, store and drivers, and the few spies restore themselves. Isolated, the
// suite spent 91 s of CPU, mostly importing src again for each of ~100 files; shared, 17 s
// (`/usr/bin/time npx vitest run`, with and without `--isolate=false`, same 1,238 tests).
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], isolate: false },
});
