/** A program from the repository README, as written there, for installing on the packed packages. */
import { readFileSync } from 'node:fs';
import { extractBlocks } from '@datadriver/docs-check';

const README = new URL('../../../README.md', import.meta.url);

function readmeBlock(name: string): string {
  const { blocks } = extractBlocks(readFileSync(README, 'utf8'), 'README.md');
  const block = blocks.find((found) => found.name === name);
  if (!block) throw new Error(`README.md has no \`ts file=${name}\` block`);
  return block.code;
}

/** README's "Two servers of your own": two processes hand a player over on one Redis. */
export const README_TWO_SERVERS = readmeBlock('two-servers.ts');
