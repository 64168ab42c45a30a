/**
 * Which Markdown files are checked: the READMEs and every page under `docs/`, at any depth,
 * never the site's build, cache or dependencies. A type error in a docs page is reported at its
 * file and line like one in a README.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocs, formatProblem, markdownFilesOf } from '../src/docs.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cache = join(packageDir, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const root = mkdtempSync(join(cache, 'docs-check-tree-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BROKEN_PAGE = ['# A guide page', '', '```ts', "const coins: number = 'ten';", '```', ''].join(
  '\n',
);

function write(path: string, text = '# page\n'): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

write('README.md');
write('packages/core/README.md');
write('packages/no-readme/index.ts', '');
write('examples/bot/README.md');
write('bench/README.md');
write('docs/index.md');
write('docs/guide/concepts.md');
write('docs/guide/deeper/page.md', BROKEN_PAGE);
write('docs/reference/options.md');
write('docs/guide/notes.txt', 'not Markdown');
write('docs/node_modules/vitepress/README.md');
write('docs/.vitepress/cache/page.md');
write('docs/dist/guide/concepts.md');

describe('the Markdown files docs-check reads', () => {
  it('are the READMEs and every .md under docs/, not the site build, cache or dependencies', () => {
    expect(markdownFilesOf(root)).toEqual([
      'README.md',
      'packages/core/README.md',
      'examples/bot/README.md',
      'bench/README.md',
      'docs/guide/concepts.md',
      'docs/guide/deeper/page.md',
      'docs/index.md',
      'docs/reference/options.md',
    ]);
  });

  it('a type error in a docs page is reported at its file and line', async () => {
    const result = await checkDocs({
      root,
      files: markdownFilesOf(root),
      packageDir,
      outDir: join(root, '.out'),
    });
    expect(result.problems.map(formatProblem)).toEqual([
      "docs/guide/deeper/page.md:4: TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });
});
