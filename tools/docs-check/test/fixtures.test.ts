/**
 * The checker on small Markdown files of its own: a block's type error is reported at its
 * Markdown line, declarations in a docs-check comment make a fragment check, `file=` blocks
 * import each other, `ts run` blocks run (a failure or a hang is reported), and mistakes in the
 * markup are reported instead of silently skipping a block.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CheckResult, checkDocs, formatProblem } from '../src/docs.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('./fixtures', import.meta.url));
// Inside this package, so the blocks resolve its dependencies.
const cache = join(packageDir, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'docs-check-fixtures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One program for the files that only type-check, one run for the programs: ts is slow to start. */
let checked: CheckResult;
let ran: CheckResult;
beforeAll(async () => {
  checked = await checkDocs({
    root,
    files: ['guide.md', 'bad-preamble.md', 'markup.md'],
    packageDir,
    outDir: join(scratch, 'checked'),
  });
  ran = await checkDocs({
    root,
    files: ['named.md', 'runs.md'],
    packageDir,
    outDir: join(scratch, 'ran'),
    runEnv: { ...process.env, REDIS_URL: inject('redisUrl') },
    runTimeoutMs: 5_000,
  });
});

function of(result: CheckResult, file: string) {
  return {
    blocks: result.blocks.filter((block) => block.file === file),
    problems: result.problems.filter((problem) => problem.file === file),
  };
}

describe('docs-check on a guide', () => {
  it('reports each type error at the Markdown line of its code, and only those', () => {
    const { blocks, problems } = of(checked, 'guide.md');
    expect(blocks.map((block) => block.line)).toEqual([6, 14, 25, 33]);
    expect(problems.map(formatProblem)).toEqual([
      "guide.md:14: TS2304: Cannot find name 'playerData'.",
      "guide.md:14: TS2304: Cannot find name 'host'.",
      "guide.md:33: TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it('an error in a docs-check comment points at the comment’s line', () => {
    const { problems } = of(checked, 'bad-preamble.md');
    expect(problems.map(formatProblem)).toEqual([
      "bad-preamble.md:4: TS2304: Cannot find name 'Nowhere'.",
    ]);
  });
});

describe('docs-check on programs', () => {
  it('a file= block is imported by another, and a ts run block runs with REDIS_URL', () => {
    const { blocks, problems } = of(ran, 'named.md');
    expect(blocks.map((block) => [block.name, block.run])).toEqual([
      ['profiles.ts', false],
      [undefined, true],
    ]);
    expect(problems).toEqual([]);
  });

  it('a program that throws, or never exits, is a problem at its line, with its output', () => {
    const { problems } = of(ran, 'runs.md');
    expect(problems.map((problem) => problem.line)).toEqual([4, 8]);
    expect(problems[0]!.message).toMatch(
      /^the block exited with code 1; its output ended with:\n[\s\S]*Error: this example is broken/,
    );
    expect(problems[1]!.message).toBe(
      'the block did not exit within 5 s (does it close what it opens?)',
    );
  });
});

describe('docs-check on its own markup', () => {
  it('refuses an unknown fence option and a docs-check comment that declares for no ts block', () => {
    const { blocks, problems } = of(checked, 'markup.md');
    expect(blocks).toHaveLength(1);
    expect(problems.map(formatProblem)).toEqual([
      'markup.md:3: unknown docs-check option "runnable" on the fence (use "run" or "file=<name>.ts")',
      'markup.md:7: a docs-check comment must come right before the ts block it declares names for',
      'markup.md:11: a docs-check comment must come right before the ts block it declares names for',
    ]);
  });
});
