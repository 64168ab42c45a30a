import { defineConfig } from 'tsup';

export default defineConfig({
  // The simulator's CLI is a second entry, so `pnpm simulate` runs the built dist.
  entry: { index: 'src/index.ts', 'simulation/cli': 'src/simulation/cli.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
