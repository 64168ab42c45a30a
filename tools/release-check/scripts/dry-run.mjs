#!/usr/bin/env node
// Shows exactly what `pnpm release` would publish: for each package, the version, the files
// and sizes of its tarball (packed as pnpm publishes it), and its dependency ranges after
// pnpm has replaced the workspace protocol. Nothing is published.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage } from './pack.mjs';
import { PUBLISHED } from './published.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const into = mkdtempSync(join(tmpdir(), 'dd-dry-run-'));

try {
  for (const name of PUBLISHED) {
    const packed = await packPackage(name, into);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', packed.filename, 'package/package.json'], { encoding: 'utf8' }),
    );
    console.log(`\n${manifest.name}@${manifest.version}  (${packed.files.length} files)`);
    for (const file of packed.files) console.log(`  ${file}`);
    for (const field of ['dependencies', 'peerDependencies']) {
      for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
        console.log(`  ${field === 'dependencies' ? 'dependency' : 'peer'} ${dependency} ${range}`);
      }
    }
  }
  console.log('\nPending changesets (the versions `pnpm version-packages` would write):');
  execFileSync('pnpm', ['changeset', 'status', '--verbose'], { cwd: root, stdio: 'inherit' });
} finally {
  rmSync(into, { recursive: true, force: true });
}
