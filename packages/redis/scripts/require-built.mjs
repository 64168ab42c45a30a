/**
 * What the measure scripts import from other workspace packages must be built first: each
 * script calls this before its dynamic imports, and exits with what to run when it is not.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DISTS = ['../../core/dist/index.js', '../../../tools/backends/dist/index.js'];

export function requireBuilt() {
  for (const dist of DISTS) {
    if (!existsSync(fileURLToPath(new URL(dist, import.meta.url)))) {
      console.error(
        `missing ${dist.replace(/^[./]+/, '')}: run \`pnpm build\` at the repository root first`,
      );
      process.exit(1);
    }
  }
}
