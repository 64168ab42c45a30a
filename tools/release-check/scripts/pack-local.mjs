#!/usr/bin/env node
// `pnpm pack:local [--out DIR]`: every published package packed into DIR (default: packed/ at
// the repository root) as `pnpm publish` would pack it, for installing with npm into a project
// of your own before the packages are on the registry. Prints each tarball and the install line.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage } from './pack.mjs';
import { PUBLISHED } from './published.mjs';

const USAGE = `Usage: pnpm pack:local [--out DIR]

Packs every published @datadriver package into DIR (default: packed/ in this repository) as
\`pnpm publish\` would, and prints the npm command that installs them into your own project.`;

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const at = argv.indexOf('--out');
const unknown = argv.filter((_arg, index) => !(index === at || (at >= 0 && index === at + 1)));
if ((at >= 0 && !argv[at + 1]) || unknown.length > 0) {
  const why = unknown.length > 0 ? `unknown option ${unknown[0]}` : '--out needs a folder';
  console.error(`pnpm pack:local: ${why}\n\n${USAGE}`);
  process.exit(2);
}
const root = fileURLToPath(new URL('../../../', import.meta.url));
const into = resolve(at >= 0 ? argv[at + 1] : resolve(root, 'packed'));
mkdirSync(into, { recursive: true });

const packed = [];
for (const name of PUBLISHED) packed.push(await packPackage(name, into));
const width = Math.max(...packed.map((item) => `${item.name}@${item.version}`.length));
console.log(`Packed ${packed.length} packages into ${into}:`);
for (const item of packed)
  console.log(`  ${`${item.name}@${item.version}`.padEnd(width)}  ${item.filename}`);
const pathOf = (folder) => packed.find((item) => item.folder === folder)?.filename;
// A bare `ioredis` would install its latest major, outside the adapter's peer range.
const redisManifest = JSON.parse(
  readFileSync(resolve(root, 'packages/redis/package.json'), 'utf8'),
);
const ioredisMajor = /\d+/.exec(redisManifest.peerDependencies.ioredis)?.[0];
console.log(`
Install core and the adapters you use into your project (each adapter's SDK within its peer
range), for example core with the Redis adapter:

  npm install ${pathOf('core')} ${pathOf('redis')} ioredis@${ioredisMajor}`);
