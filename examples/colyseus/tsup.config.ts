import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/server.ts', 'src/play.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
