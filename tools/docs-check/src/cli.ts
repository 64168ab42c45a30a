/**
 * `pnpm docs:check`: type-checks every TypeScript block of the READMEs and docs/ pages and runs the `ts run`
 * ones (on a redis-server it starts, or REDIS_URL), printing each problem as `file:line: ...`.
 * `--no-run` only type-checks.
 */
import { fileURLToPath } from 'node:url';
import { startRedis } from '@datadriver/backends';
import { checkDocs, formatProblem, HOW_TO_FIX, markdownFilesOf } from './docs.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const run = !process.argv.includes('--no-run');

const redis = run ? await startRedis() : undefined;
try {
  const files = markdownFilesOf(root);
  const { blocks, problems } = await checkDocs({
    root,
    files,
    packageDir,
    ...(redis ? { runEnv: { ...process.env, REDIS_URL: redis.url } } : {}),
  });
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
