/**
 * The Markdown files whose blocks are checked: the root README, every README of a package, an
 * example or the benchmarks, and every page under `docs/`. One entry point for the test and the
 * command line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DocBlock, extractBlocks, type MarkupProblem } from './extract.js';
import { materialize } from './materialize.js';
import { type Toolchain, typeCheckWith } from './newest-toolchain.js';
import { runBlocks } from './run-blocks.js';
import { typeCheck } from './type-check.js';

export type Problem = MarkupProblem;

export const DOC_FOLDERS = ['packages', 'examples'] as const;

/** The documentation's own folder: every `.md` under it is checked. */
export const DOCS_DIR = 'docs';

/** What under `docs/` is not a page: the site's build, cache and dependencies. */
const NOT_PAGES = new Set(['node_modules', 'dist', '.vitepress']);

/**
 * `README.md`, `packages/*\/README.md`, `examples/*\/README.md`, `bench/README.md` and every
 * `docs/**\/*.md`, repository-relative.
 */
export function markdownFilesOf(root: string): string[] {
  const found = ['README.md'];
  for (const folder of DOC_FOLDERS) {
    for (const name of readdirSync(join(root, folder)).sort()) {
      if (existsSync(join(root, folder, name, 'README.md')))
        found.push(`${folder}/${name}/README.md`);
    }
  }
  if (existsSync(join(root, 'bench', 'README.md'))) found.push('bench/README.md');
  if (existsSync(join(root, DOCS_DIR))) found.push(...pagesUnder(root, DOCS_DIR));
  return found;
}

/** The `.md` files under `dir` (repository-relative), depth first, in name order. */
function pagesUnder(root: string, dir: string): string[] {
  const pages: string[] = [];
  const entries = readdirSync(join(root, dir), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (NOT_PAGES.has(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) pages.push(...pagesUnder(root, path));
    else if (entry.isFile() && entry.name.endsWith('.md')) pages.push(path);
  }
  return pages;
}

export interface CheckOptions {
  /** The repository root; the files are read and reported relative to it. */
  readonly root: string;
  readonly files: readonly string[];
  /** This package's folder: the modules go under its node_modules/.cache, to resolve its deps. */
  readonly packageDir: string;
  /** Run the `ts run` blocks with this environment (skipped when absent). */
  readonly runEnv?: NodeJS.ProcessEnv;
  /** How long a `ts run` block may take (60 s by default). */
  readonly runTimeoutMs?: number;
  /** Where the modules are written (this package's node_modules/.cache/docs-check by default). */
  readonly outDir?: string;
}

export interface CheckResult {
  readonly blocks: readonly DocBlock[];
  readonly problems: readonly Problem[];
}

/** Every block of `files`, and the mistakes in their markup. */
function blocksOf(
  root: string,
  files: readonly string[],
): { blocks: DocBlock[]; problems: Problem[] } {
  const blocks: DocBlock[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    const found = extractBlocks(readFileSync(join(root, file), 'utf8'), file);
    blocks.push(...found.blocks);
    problems.push(...found.problems);
  }
  return { blocks, problems };
}

function byLine(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export async function checkDocs(options: CheckOptions): Promise<CheckResult> {
  const { blocks, problems } = blocksOf(options.root, options.files);
  const outDir = options.outDir ?? join(options.packageDir, 'node_modules', '.cache', 'docs-check');
  const { modules, problems: clashes } = materialize(blocks, outDir);
  problems.push(...clashes, ...typeCheck(modules, options.packageDir));
  if (options.runEnv) {
    // A file with a type error is not run: the error is the problem to fix first.
    const broken = new Set(problems.map((problem) => problem.file));
    const runnable = modules.filter((module) => !broken.has(module.block.file));
    problems.push(...(await runBlocks(runnable, options.runEnv, options.runTimeoutMs)));
  }
  return { blocks, problems: byLine(problems) };
}

/**
 * The same blocks type-checked with another toolchain (the newest npm serves) instead of the
 * pinned one; nothing is run. Its modules go to their own folder (`docs-check-newest` by default),
 * so this and `checkDocs` may run at once.
 */
export async function checkDocsWith(
  toolchain: Toolchain,
  options: Omit<CheckOptions, 'runEnv' | 'runTimeoutMs'>,
): Promise<CheckResult> {
  const { blocks, problems } = blocksOf(options.root, options.files);
  const outDir =
    options.outDir ?? join(options.packageDir, 'node_modules', '.cache', 'docs-check-newest');
  const { modules, problems: clashes } = materialize(blocks, outDir);
  problems.push(...clashes, ...(await typeCheckWith(toolchain, modules, outDir)));
  return { blocks, problems: byLine(problems) };
}

/** `README.md:57: TS2304: Cannot find name 'host'.` */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}: ${problem.message}`;
}

export const HOW_TO_FIX = [
  'Each ```ts block of a README or a docs/ page is type-checked as a module of its own against the workspace packages.',
  'Import what it uses; declare what the reader brings (a Host, a client made earlier) in a comment',
  'right before the block:  <!-- docs-check: declare const host: Host<HostPlayer>; -->',
  'Mark a complete program ```ts run to have it run. See tools/docs-check/README.md.',
].join('\n');
