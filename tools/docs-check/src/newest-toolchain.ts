/**
 * The newest `typescript` and `@types/node` npm serves, installed at run time into a folder of
 * their own, and a type check of the blocks' modules with them. TypeScript 7 is a native
 * compiler whose package has no `ts.createProgram`, so this runs its `tsc` on a tsconfig.json
 * with the same options as the pinned check and maps each error back to its Markdown line.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { MarkupProblem } from './extract.js';
import { type BlockModule, markdownLine } from './materialize.js';

const execFileAsync = promisify(execFile);

export interface Toolchain {
  /** The `tsc` executable. */
  readonly tsc: string;
  /** The folder holding `node`, the @types package the blocks are checked with. */
  readonly typeRoot: string;
  readonly typescriptVersion: string;
  readonly typesNodeVersion: string;
}

/**
 * npm run in `dir` as it runs in a user's project: `dir` holds a package.json, so npm takes it for
 * the project and reads the same npmrc files (the project's, the user's, and the global one beside
 * npm, where a machine sets its `cafile`, registry or proxy). Not `npm --prefix <dir>`: `prefix`
 * is npm's global prefix, so npm would read its global settings from `<dir>/etc/npmrc` (absent)
 * and, behind a TLS-inspecting proxy whose CA is only in that `cafile`, fail every fetch with
 * SELF_SIGNED_CERT_IN_CHAIN and retry with back-off until killed.
 */
export async function npmIn(
  dir: string,
  args: readonly string[],
  timeout: number,
): Promise<{ stdout: string; stderr: string }> {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, '{ "private": true }\n');
  try {
    return await execFileAsync('npm', [...args], { cwd: dir, timeout });
  } catch (error) {
    // npm's log says why (a certificate, a proxy, the registry), not just that it was killed.
    const failed = error as { stderr?: string; signal?: string };
    const log = (failed.stderr ?? '').trim().split('\n').slice(-12).join('\n');
    const how = failed.signal ? `killed (${failed.signal}) after ${timeout} ms` : 'failed';
    throw new Error(`npm ${args.join(' ')} in ${dir} ${how}:\n${log}`, { cause: error });
  }
}

/** `npm install --no-save` of `typescript@latest` and `@types/node@latest` into `prefix`. */
export async function installNewestToolchain(prefix: string): Promise<Toolchain> {
  await npmIn(
    prefix,
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      // One line per request (four packages): a registry that cannot be reached shows why.
      '--loglevel=http',
      // A fetch that fails is retried once after 2 s, not twice with up to 60 s of back-off: a
      // broken network fails the test in seconds with npm's reason, not at the timeout.
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=2000',
      '--fetch-retry-maxtimeout=5000',
      'typescript@latest',
      '@types/node@latest',
    ],
    // npm fetches a compiler of tens of megabytes: about 10 s, bounded for a busy CI machine.
    170_000,
  );
  const modules = join(prefix, 'node_modules');
  const versionOf = (name: string): string =>
    JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
  return {
    tsc: join(modules, '.bin', 'tsc'),
    typeRoot: join(modules, '@types'),
    typescriptVersion: versionOf('typescript'),
    typesNodeVersion: versionOf('@types/node'),
  };
}

/** `typescript 7.0.2, @types/node 26.6.11` */
export function describeToolchain(toolchain: Toolchain): string {
  return `typescript ${toolchain.typescriptVersion}, @types/node ${toolchain.typesNodeVersion}`;
}

/** The pinned check's options (type-check.ts), as a tsconfig.json says them. */
function tsconfigOf(modules: readonly BlockModule[], toolchain: Toolchain): object {
  return {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [toolchain.typeRoot],
    },
    files: modules.map((module) => module.path),
  };
}

/** `path(line,col): error TS1234: message` (then indented lines that elaborate it). */
const ERROR_LINE = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const GLOBAL_ERROR = /^error (TS\d+): (.*)$/;

/**
 * Type-checks `modules` (written under `outDir` by `materialize`) with `toolchain`'s tsc: a
 * tsconfig.json in `outDir` lists them. Each problem says which toolchain found it.
 */
export async function typeCheckWith(
  toolchain: Toolchain,
  modules: readonly BlockModule[],
  outDir: string,
): Promise<MarkupProblem[]> {
  if (modules.length === 0) return [];
  const byPath = new Map(modules.map((module) => [resolve(module.path), module]));
  const project = join(outDir, 'tsconfig.json');
  writeFileSync(project, `${JSON.stringify(tsconfigOf(modules, toolchain), null, 2)}\n`);
  let output: string;
  try {
    const done = await execFileAsync(toolchain.tsc, ['-p', project, '--pretty', 'false'], {
      cwd: outDir,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    });
    output = done.stdout + done.stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: unknown };
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    // tsc exits 1 or 2 when it found errors; anything else is the compiler failing to run.
    if (typeof failed.code !== 'number' || output.trim() === '') throw error;
  }
  const by = `[${describeToolchain(toolchain)}]`;
  const problems: MarkupProblem[] = [];
  for (const line of output.split('\n')) {
    const located = ERROR_LINE.exec(line);
    if (located) {
      const [, path = '', row = '1', , code, text] = located;
      const message = `${code}: ${text}`;
      const absolute = isAbsolute(path) ? path : resolve(outDir, path);
      const module = byPath.get(absolute);
      problems.push(
        module
          ? { file: module.block.file, line: markdownLine(module, Number(row) - 1), message }
          : { file: absolute, line: Number(row), message },
      );
      continue;
    }
    const global = GLOBAL_ERROR.exec(line);
    if (global)
      problems.push({ file: '(compiler)', line: 0, message: `${global[1]}: ${global[2]}` });
    else if (/^\s+\S/.test(line) && problems.length > 0) {
      const last = problems[problems.length - 1]!;
      problems[problems.length - 1] = { ...last, message: `${last.message} ${line.trim()}` };
    }
  }
  if (problems.length === 0 && output.trim() !== '') {
    problems.push({ file: '(compiler)', line: 0, message: output.trim() });
  }
  return problems.map((problem) => ({ ...problem, message: `${problem.message} ${by}` }));
}
