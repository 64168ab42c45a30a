/**
 * Runs the blocks marked `ts run`: every block of their Markdown file is compiled to JavaScript
 * beside its module (so `./profiles.js` imports resolve), and each runnable one is run with Node
 * and must exit 0 within the time limit. A runnable block that uses Redis reads `REDIS_URL`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import ts from 'typescript';
import type { MarkupProblem } from './extract.js';
import type { BlockModule } from './materialize.js';

export const RUN_TIMEOUT_MS = 60_000;
const OUTPUT_TAIL = 2_000;

function emit(module: BlockModule): string {
  const js = module.path.replace(/\.m?ts$/, '.js');
  const { outputText } = ts.transpileModule(readFileSync(module.path, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: module.path,
  });
  writeFileSync(js, outputText);
  return js;
}

function runOne(
  path: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], {
      cwd: dirname(path),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const tail = output.trim() ? `; its output ended with:\n${output.trim()}` : '';
      if (signal === 'SIGKILL') {
        resolve(
          `the block did not exit within ${timeoutMs / 1000} s (does it close what it opens?)${tail}`,
        );
      } else if (code !== 0) resolve(`the block exited with ${signal ?? `code ${code}`}${tail}`);
      else resolve(undefined);
    });
  });
}

/** Runs each `ts run` block; resolves with one problem per block that failed. */
export async function runBlocks(
  modules: readonly BlockModule[],
  env: NodeJS.ProcessEnv,
  timeoutMs = RUN_TIMEOUT_MS,
): Promise<MarkupProblem[]> {
  const runnable = modules.filter((module) => module.block.run);
  const files = new Set(runnable.map((module) => module.block.file));
  const compiled = new Map<BlockModule, string>();
  for (const module of modules) {
    if (files.has(module.block.file)) compiled.set(module, emit(module));
  }
  const problems: MarkupProblem[] = [];
  for (const module of runnable) {
    const failure = await runOne(compiled.get(module)!, env, timeoutMs);
    if (failure)
      problems.push({ file: module.block.file, line: module.block.line, message: failure });
  }
  return problems;
}
