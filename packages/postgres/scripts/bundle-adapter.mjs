/**
 * Bundles this package's src into one ESM file under node_modules/.cache, for the server
 * fixture that the cross-process test runs as separate Node processes. pg and @datadriver/core
 * stay external (the fixture uses core's built dist), and dist/ is never touched (turbo may be
 * building or reading it at the same time).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = fileURLToPath(
  new URL('../node_modules/.cache/datadriver-postgres-fixture', import.meta.url),
);

/** Builds the bundle and returns its file URL, ready for `import()`. */
export async function bundleAdapter() {
  await build({
    config: false,
    entry: { adapter: `${packageRoot}src/index.ts` },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    external: ['pg', '@datadriver/core'],
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
  });
  return pathToFileURL(`${outDir}/adapter.js`).href;
}
