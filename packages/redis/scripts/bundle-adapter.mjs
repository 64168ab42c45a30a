/**
 * Bundles this package's src into one ESM file under node_modules/.cache, for the server
 * fixture that tests and the measure script run as separate Node processes. The bundle leaves
 * ioredis and @datadriver/core external, so the fixture uses core's built dist, and it never
 * touches dist/ (turbo may be building or reading it at the same time).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = fileURLToPath(
  new URL('../node_modules/.cache/datadriver-redis-fixture', import.meta.url),
);

/**
 * Builds the bundle and returns its file URL, ready for `import()`. `purpose` ("test",
 * "measure") keeps the tests and the measure script from cleaning each other's bundle.
 */
export async function bundleAdapter(purpose) {
  const outDir = `${cacheDir}/${purpose}`;
  await build({
    config: false,
    entry: { adapter: `${packageRoot}src/index.ts` },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    external: ['ioredis', '@datadriver/core'],
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
  });
  return pathToFileURL(`${outDir}/adapter.js`).href;
}
