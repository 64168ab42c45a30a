/**
 * The one build of every published package, run in the package's folder as
 * `tsup --config ../../tsup.config.ts`: ESM with declarations and source maps for Node 20, one
 * entry for each `exports` entry and `bin` of the package's package.json (`./dist/x.js` is
 * built from `src/x.ts`). A package with an entry of another kind (testkit's simulator CLI)
 * adds it in its own `tsup.config.ts` through `packageBuild`.
 */
import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

interface PackageJson {
  readonly exports?: Record<string, string | { readonly import?: string }>;
  readonly bin?: string | Record<string, string>;
}

/** `{ x: 'src/x.ts' }` for every `./dist/x.js` the package's exports and bin name. */
function entriesOf(pkg: PackageJson): Record<string, string> {
  const exported = Object.values(pkg.exports ?? {}).map((target) =>
    typeof target === 'string' ? target : target.import,
  );
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
  const entries: Record<string, string> = {};
  for (const built of [...exported, ...bins]) {
    const name = built?.match(/^\.\/dist\/(.+)\.js$/)?.[1];
    if (name) entries[name] = `src/${name}.ts`;
  }
  return entries;
}

/** The build of the package in the current folder, with `extra` entries beside its own. */
export function packageBuild(extra: Record<string, string> = {}): Options {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
  return {
    entry: { ...entriesOf(pkg), ...extra },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    // Class names as written: an uncaught error prints as DataDriverError, not _DataDriverError.
    keepNames: false,
  };
}

export default defineConfig(packageBuild());
