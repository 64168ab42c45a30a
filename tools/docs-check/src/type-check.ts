/**
 * Type-checks the blocks' modules as one program, with the settings of a user's strict ESM
 * project on Node (NodeNext), against the workspace's built packages, and reports each error at
 * the Markdown line it comes from.
 */
import { join } from 'node:path';
import ts from 'typescript';
import type { MarkupProblem } from './extract.js';
import { type BlockModule, markdownLine } from './materialize.js';

/** What `tsc --init` and the packages' own READMEs assume: strict, ESM, Node's resolution. */
export function compilerOptions(packageDir: string): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(packageDir, 'node_modules', '@types')],
  };
}

export function typeCheck(modules: readonly BlockModule[], packageDir: string): MarkupProblem[] {
  const byPath = new Map(modules.map((module) => [module.path, module]));
  const program = ts.createProgram(
    modules.map((module) => module.path),
    compilerOptions(packageDir),
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    const { file, start } = diagnostic;
    if (!file || start === undefined) return { file: '(compiler)', line: 0, message };
    const { line } = file.getLineAndCharacterOfPosition(start);
    const module = byPath.get(file.fileName);
    if (!module) return { file: file.fileName, line: line + 1, message };
    return { file: module.block.file, line: markdownLine(module, line), message };
  });
}
