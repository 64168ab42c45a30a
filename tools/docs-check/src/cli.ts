/**
 * `pnpm docs:check`: type-checks every TypeScript block of the READMEs and docs/ pages and runs the `ts run`
 * ones (on a redis-server it starts, or REDIS_URL), printing each problem as `file:line: ...`.
 * `--no-run` only type-checks. `--newest` also type-checks every block with the newest
 * `typescript` and `@types/node` npm serves (installed into a temporary folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedis } from '@datadriver/backends';
import { checkDocs, checkDocsWith, formatProblem, HOW_TO_FIX, markdownFilesOf } from './docs.js';
import { describeToolchain, installNewestToolchain } from './newest-toolchain.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const run = !process.argv.includes('--no-run');
const newest = process.argv.includes('--newest');

const redis = run ? await startRedis() : undefined;
try {
  const files = markdownFilesOf(root);
  const pinned = await checkDocs({
    root,
    files,
    packageDir,
    ...(redis ? { runEnv: { ...process.env, REDIS_URL: redis.url } } : {}),
  });
  const { blocks } = pinned;
  const problems = [...pinned.problems];
  if (newest) {
    const prefix = mkdtempSync(join(tmpdir(), 'docs-check-newest-toolchain-'));
    try {
      const toolchain = await installNewestToolchain(prefix);
      console.log(
        `Also type-checking with the newest npm serves: ${describeToolchain(toolchain)}.`,
      );
      problems.push(...(await checkDocsWith(toolchain, { root, files, packageDir })).problems);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  }
  for (const problem of problems) console.error(formatProblem(problem));
  const runnable = blocks.filter((block) => block.run).length;
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} problem(s) in the documentation's TypeScript blocks.\n${HOW_TO_FIX}`,
    );
    process.exitCode = 1;
  } else {
    const ran = run ? `, ${runnable} run` : '';
    console.log(
      `${blocks.length} TypeScript blocks in ${files.length} Markdown files type-check${ran}.`,
    );
  }
} finally {
  await redis?.stop();
}
