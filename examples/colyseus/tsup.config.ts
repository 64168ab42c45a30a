import { defineConfig } from 'tsup';

export default defineConfig({
  // colyseus-process: also what the parent-death test's runner imports.
  entry: ['src/server.ts', 'src/play.ts', 'src/colyseus-process.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
