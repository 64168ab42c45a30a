/**
 * Writes each block as a TypeScript module of its own (its declarations first), one folder per
 * Markdown file, inside this package so that its imports resolve to the workspace's packages,
 * and maps a line of that module back to the Markdown line it came from.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocBlock, MarkupProblem } from './extract.js';

export interface BlockModule {
  readonly block: DocBlock;
  /** The module's path on disk (`.ts`). */
  readonly path: string;
  /** Lines of the module before the block's code: its declarations. */
  readonly preambleLines: number;
}

/** The folder of a Markdown file's modules: `packages/core/README.md` -> `packages-core-README`. */
function folderOf(file: string): string {
  return file.replace(/\.md$/i, '').replace(/[^\w.-]+/g, '-');
}

export function materialize(
  blocks: readonly DocBlock[],
  outDir: string,
): { modules: BlockModule[]; problems: MarkupProblem[] } {
  rmSync(outDir, { recursive: true, force: true });
  const modules: BlockModule[] = [];
  const problems: MarkupProblem[] = [];
  const taken = new Map<string, DocBlock>();
  for (const block of blocks) {
    const dir = join(outDir, folderOf(block.file));
    const path = join(dir, block.name ?? `block-${block.line}.ts`);
    const earlier = taken.get(path);
    if (earlier) {
      problems.push({
        file: block.file,
        line: block.line - 1,
        message: `file=${block.name} is already the block at line ${earlier.line}`,
      });
      continue;
    }
    taken.set(path, block);
    const preambleLines = block.preamble === '' ? 0 : block.preamble.split('\n').length;
    const head = block.preamble === '' ? '' : `${block.preamble}\n`;
    // `export {}` makes every block a module: top-level await, no globals shared between blocks.
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, `${head}${block.code}\nexport {};\n`);
    modules.push({ block, path, preambleLines });
  }
  return { modules, problems };
}

/** The Markdown line of a 0-based line of `module`. */
export function markdownLine(module: BlockModule, moduleLine: number): number {
  const { block, preambleLines } = module;
  return moduleLine < preambleLines
    ? block.preambleLine + moduleLine
    : block.line + moduleLine - preambleLines;
}
