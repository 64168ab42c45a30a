import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ports: 'src/ports.ts', testing: 'src/testing.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Class names as written: an uncaught error prints as DataDriverError, not _DataDriverError.
  keepNames: false,
});
