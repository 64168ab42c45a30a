/** Links into the repository, checked against the files on disk: paths, and headings as GitHub names them. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  githubSlug,
  headingSlugs,
  isRepositoryLink,
  repositoryLinkProblem,
} from '../src/repository-links.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const BLOB = 'https://github.com/datadriver/datadriver/blob/main';

describe('githubSlug', () => {
  it.each([
    ['Redis Cluster', 'redis-cluster'],
    ['`datadriver`, the inspector', 'datadriver-the-inspector'],
    ['How each port works', 'how-each-port-works'],
    [
      'Profile lifecycle: versions, restoreAt, user ids',
      'profile-lifecycle-versions-restoreat-user-ids',
    ],
    ['Set `lockWaitSeconds: 20` if crashes matter', 'set-lockwaitseconds-20-if-crashes-matter'],
  ])('%s -> %s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings, and skips headings inside code fences', () => {
    const markdown = ['# A', '## Notes', '```sh', '# not a heading', '```', '## Notes'].join('\n');
    expect([...headingSlugs(markdown)]).toEqual(['a', 'notes', 'notes-1']);
  });
});

describe('repositoryLinkProblem', () => {
  it('accepts a file and a heading that exist', () => {
    expect(repositoryLinkProblem(root, `${BLOB}/packages/redis/README.md#redis-cluster`)).toBe(
      undefined,
    );
    expect(repositoryLinkProblem(root, `${BLOB}/CONTRIBUTING.md#adding-an-adapter`)).toBe(
      undefined,
    );
    expect(repositoryLinkProblem(root, `${BLOB}/bench/README.md`)).toBe(undefined);
  });

  it('names a missing file and a missing heading', () => {
    expect(repositoryLinkProblem(root, `${BLOB}/packages/nowhere/README.md`)).toBe(
      'packages/nowhere/README.md does not exist in the repository',
    );
    expect(repositoryLinkProblem(root, `${BLOB}/CONTRIBUTING.md#no-such-heading`)).toBe(
      'CONTRIBUTING.md has no heading #no-such-heading',
    );
  });

  it('leaves other sites alone', () => {
    expect(isRepositoryLink('https://vitepress.dev/')).toBe(false);
    expect(repositoryLinkProblem(root, 'https://standardschema.dev')).toBe(undefined);
  });
});
