// The published packages, as their folder names under packages/: the changesets fixed group,
// the one list a new package joins (every release check reads it from here).
import { readFileSync } from 'node:fs';

const config = JSON.parse(
  readFileSync(new URL('../../../.changeset/config.json', import.meta.url), 'utf8'),
);

/** @type {readonly string[]} */
export const PUBLISHED = config.fixed[0].map((name) => name.replace(/^@datadriver\//, ''));
