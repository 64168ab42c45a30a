import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/bot.ts', 'src/bot-cli.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
