/**
 * A throwaway copy of the repository holding what a release reads and writes: the root
 * manifest and workspace file, `.changeset/`, every published package (built, its `dist`
 * included) and the manifests of the private workspace packages they name, linked to each
 * other as `pnpm install` links them (`pnpm publish` reads a `workspace:` dependency's version
 * from its link). `changeset version` and `changeset publish` run there, never on the worktree.
 */

import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLISHED } from '../scripts/published.mjs';
import { run } from './consumer-project.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SKIPPED = new Set(['node_modules', '.turbo', 'coverage']);

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** The workspace's package folders (repository-relative) by package name. */
async function workspaceFolders(): Promise<Map<string, string>> {
  const yaml = await readFile(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1]!);
  const folders = new Map<string, string>();
  for (const glob of globs) {
    const candidates = glob.endsWith('/*')
      ? (await readdir(join(ROOT, glob.slice(0, -2)))).map((name) => `${glob.slice(0, -2)}/${name}`)
      : [glob];
    for (const folder of candidates) {
      const manifest = join(ROOT, folder, 'package.json');
      if (existsSync(manifest))
        folders.set(JSON.parse(await readFile(manifest, 'utf8')).name, folder);
    }
  }
  return folders;
}

/**
 * Copies the release inputs into `into`, writes `npmrc` as its `.npmrc` (the registry every
 * publish goes to), and commits the copy in a git repository of its own, where `changeset
 * publish` tags the release.
 */
export async function copyForRelease(into: string, npmrc: string): Promise<void> {
  for (const file of ['package.json', 'pnpm-workspace.yaml'])
    await cp(join(ROOT, file), join(into, file));
  await cp(join(ROOT, '.changeset'), join(into, '.changeset'), { recursive: true });
  const folders = await workspaceFolders();
  const published = PUBLISHED.map((name) => `packages/${name}`);
  for (const folder of published) {
    await cp(join(ROOT, folder), join(into, folder), {
      recursive: true,
      filter: (source) => !SKIPPED.has(relative(join(ROOT, folder), source).split('/')[0]!),
    });
  }
  const linked = new Set<string>();
  for (const folder of published) {
    const manifest: Manifest = JSON.parse(
      await readFile(join(into, folder, 'package.json'), 'utf8'),
    );
    const names = new Set(
      [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies]
        .flatMap((field) => Object.keys(field ?? {}))
        .filter((name) => folders.has(name)),
    );
    for (const name of names) {
      const target = folders.get(name)!;
      linked.add(target);
      const link = join(into, folder, 'node_modules', name);
      await mkdir(dirname(link), { recursive: true });
      await symlink(relative(dirname(link), join(into, target)), link);
    }
  }
  // A private package a published one names (a devDependency such as @datadriver/backends):
  // its manifest is all `pnpm publish` reads.
  for (const folder of linked) {
    if (published.includes(folder)) continue;
    await mkdir(join(into, folder), { recursive: true });
    await cp(join(ROOT, folder, 'package.json'), join(into, folder, 'package.json'));
  }
  await writeFile(join(into, '.npmrc'), npmrc);
  await writeFile(join(into, '.gitignore'), 'node_modules/\n.npmrc\n');
  await git(into, 'init', '--quiet', '--initial-branch=main');
  await commitAll(into, 'the release inputs');
}

export async function commitAll(into: string, message: string): Promise<void> {
  await git(into, 'add', '--all');
  await git(into, 'commit', '--quiet', '--no-verify', '--message', message);
}

export async function git(into: string, ...args: string[]): Promise<string> {
  const identity = ['-c', 'user.name=release-check', '-c', 'user.email=release-check@localhost'];
  return (await run('git', [...identity, ...args], { cwd: into })).stdout;
}
