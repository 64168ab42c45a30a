import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ports: 'src/ports/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Class names as written: an uncaught error prints as DataDriverError, not _DataDriverError.
  keepNames: false,
});
