/**
 * Every TypeScript block of the READMEs and docs/ pages also type-checks with the NEWEST
 * `typescript` and `@types/node` npm serves at run time (installed into a temporary folder), so a
 * release of either cannot break a page silently; and a block that compiles with the pinned
 * toolchain but not with the newest is reported at its Markdown line.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckResult,
  checkDocs,
  checkDocsWith,
  formatProblem,
  HOW_TO_FIX,
  markdownFilesOf,
} from '../src/docs.js';
import {
  describeToolchain,
  installNewestToolchain,
  npmIn,
  type Toolchain,
} from '../src/newest-toolchain.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const prefix = mkdtempSync(join(tmpdir(), 'docs-check-newest-toolchain-'));
// The modules live inside this package, so the blocks resolve its dependencies.
const cache = join(packageDir, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'docs-check-newest-fixtures-'));
afterAll(() => {
  rmSync(prefix, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

let newest: Toolchain;
beforeAll(async () => {
  newest = await installNewestToolchain(prefix);
  console.log(`docs-check with the newest toolchain npm serves: ${describeToolchain(newest)}`);
});

describe('the documentation’s TypeScript blocks on the newest toolchain', () => {
  it('type-check with the newest typescript and @types/node npm serves', async () => {
    const result = await checkDocsWith(newest, { root, files: markdownFilesOf(root), packageDir });
    const report = result.problems.map(formatProblem).join('\n');
    expect(result.problems, `\n${report}\n\n${HOW_TO_FIX}\n`).toEqual([]);
    expect(result.blocks.length).toBeGreaterThanOrEqual(16);
  });
});

describe('npm as the newest toolchain’s install runs it', () => {
  it('reads the npm settings a user’s project gets (the global npmrc beside npm, where a machine sets its cafile), not a folder of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-check-npm-settings-'));
    try {
      const setting = async (cwd: string) =>
        (await npmIn(cwd, ['config', 'get', 'globalconfig'], 60_000)).stdout.trim();
      const inFolder = await setting(dir);
      expect(inFolder.startsWith(dir)).toBe(false);
      expect(inFolder).toBe(await setting(root));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs-check with another toolchain', () => {
  /** The fixtures checked once by each toolchain: the pinned one's program is slow to start. */
  const files = ['guide.md', 'bad-preamble.md', 'newest.md'];
  let pinned: CheckResult;
  let other: CheckResult;
  beforeAll(async () => {
    [pinned, other] = await Promise.all([
      checkDocs({ root: fixtures, files, packageDir, outDir: join(scratch, 'pinned') }),
      checkDocsWith(newest, { root: fixtures, files, packageDir, outDir: join(scratch, 'newest') }),
    ]);
  });
  const where = (result: CheckResult, file: string) =>
    result.problems
      .filter((problem) => problem.file === file)
      .map((problem) => `${problem.file}:${problem.line}`);

  it('reports the same type errors at the same Markdown lines as the pinned check, naming the toolchain', () => {
    for (const file of ['guide.md', 'bad-preamble.md'])
      expect(where(other, file)).toEqual(where(pinned, file));
    expect([...where(other, 'bad-preamble.md'), ...where(other, 'guide.md')]).toEqual([
      'bad-preamble.md:4',
      'guide.md:14',
      'guide.md:14',
      'guide.md:33',
    ]);
    for (const problem of other.problems) {
      expect(problem.message).toMatch(/^TS\d+: /);
      expect(problem.message.endsWith(`[${describeToolchain(newest)}]`)).toBe(true);
    }
  });

  it('reports a block that compiles with the pinned toolchain and breaks on the newest (process.disconnect is optional in newer @types/node)', () => {
    expect(where(pinned, 'newest.md')).toEqual([]);
    expect(
      other.problems.filter((problem) => problem.file === 'newest.md').map(formatProblem),
    ).toEqual([
      `newest.md:10: TS2722: Cannot invoke an object which is possibly 'undefined'. [${describeToolchain(newest)}]`,
    ]);
  });
});
