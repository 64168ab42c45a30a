/**
 * The repository's documentation: every TypeScript block of the root README, of each package's
 * and example's README and of every page under docs/ type-checks against the workspace's packages, and each `ts run` block runs
 * (on this run's redis-server). A failure names the file and line of each broken block.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type CheckResult,
  checkDocs,
  formatProblem,
  HOW_TO_FIX,
  markdownFilesOf,
} from '../src/docs.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('the documentation’s TypeScript blocks', () => {
  let result: CheckResult;
  beforeAll(async () => {
    result = await checkDocs({
      root,
      files: markdownFilesOf(root),
      packageDir,
      runEnv: { ...process.env, REDIS_URL: inject('redisUrl') },
    });
  });

  it('type-check against the workspace packages, and the `ts run` ones run', () => {
    const report = result.problems.map(formatProblem).join('\n');
    expect(result.problems, `\n${report}\n\n${HOW_TO_FIX}\n`).toEqual([]);
    expect(result.blocks.length).toBeGreaterThanOrEqual(16);
    expect(result.blocks.filter((block) => block.run).length).toBeGreaterThanOrEqual(1);
  });

  it('come from the root README, every package’s and example’s README and every docs page', () => {
    const files = markdownFilesOf(root);
    expect(files).toContain('README.md');
    expect(files).toContain('packages/core/README.md');
    expect(files).toContain('examples/game-server/README.md');
    expect(files).toContain('docs/index.md');
    expect(files).toContain('docs/reference/options.md');
    const fromDocs = result.blocks.filter((block) => block.file.startsWith('docs/'));
    expect(fromDocs.length).toBeGreaterThanOrEqual(8);
    expect(fromDocs.some((block) => block.run)).toBe(true);
  });
});

describe('this package', () => {
  it('depends on every package of packages/, so each README’s imports resolve and are built first', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const ours = { ...manifest.dependencies, ...manifest.devDependencies };
    const packages = readdirSync(`${root}/packages`).filter((name) =>
      existsSync(`${root}/packages/${name}/package.json`),
    );
    const missing = packages
      .map((name) => JSON.parse(readFileSync(`${root}/packages/${name}/package.json`, 'utf8')))
      .map((manifest: { name: string }) => manifest.name)
      .filter((name) => ours[name] !== 'workspace:*');
    expect(
      missing,
      `add ${missing.map((name) => `"${name}": "workspace:*"`).join(', ')} to tools/docs-check/package.json devDependencies`,
    ).toEqual([]);
  });
});
