/** A program from the repository README, as written there, for installing on the packed packages. */
import { readFileSync } from 'node:fs';
import { type DocBlock, extractBlocks } from '@datadriver/docs-check';

const README = new URL('../../../README.md', import.meta.url);
const README_TEXT = readFileSync(README, 'utf8');

function readmeBlock(describe: string, match: (block: DocBlock) => boolean): string {
  const { blocks } = extractBlocks(README_TEXT, 'README.md');
  const block = blocks.find(match);
  if (!block) throw new Error(`README.md has no ${describe}`);
  return block.code;
}

/** README's "Two servers of your own": two processes hand a player over on one Redis. */
export const README_TWO_SERVERS = readmeBlock(
  '`ts file=two-servers.ts` block',
  (block) => block.name === 'two-servers.ts',
);

/** README's quick start: its first complete program (the first `ts run` block). */
export const README_QUICK_START = readmeBlock(
  '`ts run` block',
  (block) => block.run && block.name === undefined && block.preamble === '',
);

/**
 * The tsconfig.json README's "Two servers of your own" has the user write (its sh block's
 * `echo '…' > tsconfig.json`), as written there: parsed, so a README that writes invalid JSON
 * fails here rather than in tsc.
 */
export const README_TSCONFIG: string = (() => {
  const echoed = /^echo '(\{[\s\S]*?\})' > tsconfig\.json$/m.exec(README_TEXT)?.[1];
  if (echoed === undefined) throw new Error("README.md has no `echo '…' > tsconfig.json` line");
  JSON.parse(echoed);
  return `${echoed}\n`;
})();
