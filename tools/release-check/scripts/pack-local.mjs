#!/usr/bin/env node
// `pnpm pack:local [--out DIR]`: every published package packed into DIR (default: packed/ at
// the repository root) as `pnpm publish` would pack it, for installing with npm into a project
// of your own before the packages are on the registry. Prints each tarball, and for each package
// the whole npm install line it needs (the @datadriver tarballs it depends on, its peers).
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLine } from './install-line.mjs';
import { packPackage } from './pack.mjs';
import { PUBLISHED } from './published.mjs';

const USAGE = `Usage: pnpm pack:local [--out DIR]

Packs every published @datadriver package into DIR (default: packed/ in this repository) as
\`pnpm publish\` would, and prints for each the npm command that installs it into your own
project, with the other @datadriver tarballs and the peers it needs.`;

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
const manifests = new Map(
  packed.map((item) => [
    item.name,
    JSON.parse(readFileSync(resolve(root, 'packages', item.folder, 'package.json'), 'utf8')),
  ]),
);
const tarballOf = (name) => packed.find((item) => item.name === name)?.filename ?? name;
console.log(`
Install a package into your project with its line below: each names the tarballs of the
@datadriver packages it needs (npm cannot fetch those from the registry before they are
published) and its other peers within their ranges.
`);
for (const item of packed) {
  const note = item.name === '@datadriver/cli' ? ' (then `npx datadriver --help`)' : '';
  console.log(`${item.name}${note}:\n  ${installLine(item.name, manifests, tarballOf)}\n`);
}
