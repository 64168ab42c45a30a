import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', ports: 'src/ports/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
