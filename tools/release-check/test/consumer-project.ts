/**
 * A user's project outside the workspace: packages packed as they would be published (`pnpm
 * pack` rewrites workspace ranges), installed with plain npm, and a TypeScript program
 * type-checked and compiled against the installed declarations.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packPackage } from '../scripts/pack.mjs';

export const run = promisify(execFile);

/** Folders to remove when the file's tests are done (`removeAll` in an afterAll). */
export class Scratch {
  private readonly dirs: string[] = [];

  async dir(prefix: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async removeAll(): Promise<void> {
    for (const dir of this.dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  }
}

/** `file:` dependencies on the tarballs of `names`, packed into a fresh folder. */
export async function tarballs(
  scratch: Scratch,
  names: readonly string[],
): Promise<Record<string, string>> {
  const into = await scratch.dir('dd-tarballs-');
  const dependencies: Record<string, string> = {};
  for (const name of names) {
    dependencies[`@datadriver/${name}`] = `file:${(await packPackage(name, into)).filename}`;
  }
  return dependencies;
}

/**
 * A fresh project with `dependencies` installed and `program` compiled to out/main.js (or each
 * of several programs, by file name, to out/<name>.js).
 */
export async function consumerProject(
  scratch: Scratch,
  dependencies: Record<string, string>,
  program: string | Readonly<Record<string, string>>,
  compilerOptions: Record<string, unknown> = {},
): Promise<string> {
  const files = typeof program === 'string' ? { 'main.ts': program } : program;
  const dir = await scratch.dir('dd-consumer-');
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies,
      devDependencies: { typescript: '5.9.3', '@types/node': '20.19.25' },
    }),
  );
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        types: ['node'],
        ...compilerOptions,
      },
      include: Object.keys(files),
    }),
  );
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
  // tsc reports type errors on stdout, which a failed execFile does not print.
  await run('npx', ['tsc', '-p', '.'], { cwd: dir }).catch((error: { stdout?: string }) => {
    throw new Error(`the consumer program does not type-check:\n${error.stdout ?? ''}`);
  });
  return dir;
}
