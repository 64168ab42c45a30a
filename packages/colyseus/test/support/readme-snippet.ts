/**
 * Runs a TypeScript block of this package's README as it is written, so a test can check what
 * the README tells users to do against the real Colyseus client.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const README = new URL('../../README.md', import.meta.url);

/** The first ```ts block after `heading` in the README. */
export function readmeBlock(heading: string): string {
  const readme = readFileSync(README, 'utf8');
  const at = readme.indexOf(heading);
  if (at === -1) throw new Error(`README has no ${heading}`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block?.[1]) throw new Error(`README has no ts block after ${heading}`);
  return block[1];
}

type AsyncFunctionConstructor = new (
  ...parameters: string[]
) => (...values: unknown[]) => Promise<void>;

/**
 * Runs `source` with `scope`'s names bound to its values (what the block's docs-check header
 * declares) and its imports taken from `modules`.
 */
export async function runSnippet(
  source: string,
  modules: Readonly<Record<string, unknown>>,
  scope: Readonly<Record<string, unknown>>,
): Promise<void> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const require = (name: string) => {
    if (!Object.hasOwn(modules, name)) throw new Error(`the snippet imports ${name}`);
    return modules[name];
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {})
    .constructor as AsyncFunctionConstructor;
  const run = new AsyncFunction('require', 'exports', ...Object.keys(scope), outputText);
  await run(require, {}, ...Object.values(scope));
}
