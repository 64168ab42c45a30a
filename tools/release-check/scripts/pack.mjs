// Packs one published package as `pnpm publish` would (workspace ranges rewritten to real
// versions): the one packing routine of the release checks, the dry run and `pnpm pack:local`.
import { execFile } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));

/**
 * @param {string} name the folder under packages/ ("core")
 * @param {string} into the folder the tarball is written to
 * @returns {Promise<import('./pack.d.mts').Packed>}
 */
export async function packPackage(name, into) {
  const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', into], {
    cwd: join(packages, name),
  });
  const packed = JSON.parse(stdout);
  const filename = isAbsolute(packed.filename) ? packed.filename : join(into, packed.filename);
  return {
    folder: name,
    name: packed.name,
    version: packed.version,
    filename,
    files: packed.files.map((/** @type {{ path: string }} */ file) => file.path),
  };
}
